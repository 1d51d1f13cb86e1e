package graphql

// maxErrorChain bounds the errors a chain may hold (the error and all it
// unwraps to, through Unwrap() error and Unwrap() []error). errors.Is and
// errors.As follow a chain to its end, so an error from user code whose
// Unwrap leads back to itself would make them loop for ever, or recurse
// until the stack runs out; such an error is replaced, where it enters the
// engine, by one that keeps only its text.
const maxErrorChain = 64

// boundedError returns err, or an error with err's text and no chain when
// err's chain is longer than maxErrorChain (a cycle) or an Unwrap panics.
func boundedError(err error) error {
	if err == nil || chainWithin(err, maxErrorChain) {
		return err
	}
	return opaqueError{errorText(err)}
}

// chainWithin reports whether err's chain holds at most budget errors.
func chainWithin(err error, budget int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	stack := []error{err}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if budget--; budget < 0 {
			return false
		}
		switch x := e.(type) {
		case interface{ Unwrap() error }:
			if u := x.Unwrap(); u != nil {
				stack = append(stack, u)
			}
		case interface{ Unwrap() []error }:
			for _, u := range x.Unwrap() {
				if u != nil {
					stack = append(stack, u)
				}
			}
		}
	}
	return true
}

// opaqueError is an error reduced to its text.
type opaqueError struct{ msg string }

func (e opaqueError) Error() string { return e.msg }
