package coerce

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file coerces the external input values of variables (decoded
// JSON, or a Go caller's values) to their types.

// inputError is one failure found while coercing an input value.
type inputError struct {
	path  []any // field names and list indexes below the root value
	msg   string
	val   any                 // the offending value
	ext   map[string]any      // the extensions of a custom scalar's *gqlerror.Error
	panic *errcode.PanicError // a custom scalar's ParseValue panicked
}

// printPath writes path below root, as "$input.items[2].name" without
// the dollar.
func printPath(root string, path []any) string {
	var b strings.Builder
	b.WriteString(root)
	for _, p := range path {
		switch x := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		default:
			b.WriteString("." + fmt.Sprint(x))
		}
	}
	return b.String()
}

// extendPath returns a new path: path, then p.
func extendPath(path []any, p any) []any {
	out := make([]any, len(path)+1)
	copy(out, path)
	out[len(path)] = p
	return out
}

// MaxInputDepth bounds how deeply a variable's value may nest (and a
// Go value written as a literal).
const MaxInputDepth = 256

// coercion is the state of coercing one variable's value: the errors
// found, and the parts (values, at every level) visited.
type coercion struct {
	errs  []inputError
	nodes int
}

// MaxInputNodes bounds the parts of one variable's value (and of a Go
// value written as a literal).
const MaxInputNodes = 1 << 20

// maxInputErrors bounds the errors coercing one variable collects, as
// validation bounds each rule's: a value with thousands of unknown fields
// must not cost thousands of messages.
const maxInputErrors = 100

// coerceInput coerces an external input value (from JSON variables) to type
// t, reporting every failure in st.
func coerceInput(v any, t *schema.Type, path []any, st *coercion) any {
	if len(st.errs) >= maxInputErrors {
		return nil // the answer lists no more; do not spend more on it
	}
	if st.nodes++; st.nodes > MaxInputNodes {
		// A Go caller's value whose maps share sub-maps unfolds to a tree
		// of 2^depth nodes; JSON cannot share.
		if st.nodes == MaxInputNodes+1 {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("The value has more than %d parts.", MaxInputNodes)})
		}
		return nil
	}
	if len(path) > MaxInputDepth {
		// JSON cannot nest this deep through graphqlhttp; a Go caller's
		// map that contains itself can.
		st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("The value is nested more than %d levels deep.", MaxInputDepth)})
		return nil
	}
	if t.Kind == schema.KindNonNull {
		if v == nil {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected non-nullable type %q not to be null.", t.String())})
			return nil
		}
		before := len(st.errs)
		out := coerceInput(v, t.Of, path, st)
		if out == nil && len(st.errs) == before {
			// A custom scalar's ParseValue said null.
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected non-nullable type %q not to be null.", t.String())})
		}
		return out
	}
	if v == nil {
		return nil
	}
	switch t.Kind {
	case schema.KindList:
		if items, ok := v.([]any); ok {
			out := make([]any, len(items))
			for i, item := range items {
				out[i] = coerceInput(item, t.Of, extendPath(path, i), st)
			}
			return out
		}
		if rv := reflect.ValueOf(v); (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
			out := make([]any, rv.Len())
			for i := range out {
				out[i] = coerceInput(rv.Index(i).Interface(), t.Of, extendPath(path, i), st)
			}
			return out
		}
		return []any{coerceInput(v, t.Of, path, st)}
	case schema.KindInputObject:
		m, ok := v.(map[string]any)
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected type %q to be an object.", t.Name)})
			return nil
		}
		info := t.Input
		out := make(map[string]any, len(info.Fields))
		for _, f := range info.Fields {
			fv, present := m[f.Name]
			if !present {
				if f.HasDefault {
					out[f.Name] = Default(f)
				} else if f.Type.Kind == schema.KindNonNull {
					st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Field %q of required type %q was not provided.", f.Name, f.Type.String())})
				}
				continue
			}
			out[f.Name] = coerceInput(fv, f.Type, extendPath(path, f.Name), st)
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if len(st.errs) >= maxInputErrors {
				break
			}
			if info.ByName[k] == nil {
				st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Field %q is not defined by type %q.", k, t.Name)})
			}
		}
		return out
	case schema.KindEnum:
		name, ok := v.(string)
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Enum %q cannot represent non-string value: %s.", t.Name, response.Inspect(v))})
			return nil
		}
		val, ok := t.Enum.ByName[name]
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Value %q does not exist in %q enum.", name, t.Name)})
			return nil
		}
		return val
	case schema.KindScalar:
		if t.Builtin != 0 {
			out, err := scalar.Parse(t.Builtin, v)
			if err != nil {
				st.errs = append(st.errs, inputError{path: path, val: v, msg: err.Error()})
				return nil
			}
			return out
		}
		out, err := parseScalarValue(t, v)
		if err != nil {
			ie := inputError{path: path, val: v}
			ge := GraphQLError(err)
			pe, panicked := err.(*errcode.PanicError)
			switch {
			case panicked || err == errNoValue:
				// As graphql-js says for a parser that returns nothing;
				// a panic's text is for the log, not the client.
				ie.msg = fmt.Sprintf("Expected type %q.", t.Name)
				ie.panic = pe
			case ge != nil:
				// A GraphQL error speaks for itself, as in graphql-js.
				ie.msg, ie.ext = ge.Message, ge.Extensions
			default:
				ie.msg = fmt.Sprintf("Expected type %q. %s", t.Name, fault.ErrorText(err))
			}
			st.errs = append(st.errs, ie)
			return nil
		}
		if out == schema.Null {
			return nil
		}
		return out
	}
	st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected an input type, found %s.", t)})
	return nil
}

// parseScalarValue calls a custom scalar's ParseValue. It returns
// errNoValue for a nil result (graphql-js's undefined: the input is
// invalid), and Null when the scalar says the input stands for null.
func parseScalarValue(sc *schema.Type, v any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fault.Recovered(r)
		}
	}()
	out, err = sc.Scalar.ParseValue(v)
	if err != nil {
		return nil, fault.BoundedError(err)
	}
	if out == nil {
		return nil, errNoValue
	}
	if out == schema.Null {
		return schema.Null, nil
	}
	return out, nil
}

// errNoValue reports a custom scalar's ParseValue returning nil.
var errNoValue = errors.New("no value")
