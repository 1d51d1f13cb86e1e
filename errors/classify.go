package errors

import (
	"database/sql"
	"net/http"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// verdict is what clients may learn about an error.
type verdict struct {
	code    Code
	message string // client message; MessageInternal when masked
	status  int    // HTTP status of a REST answer
	// showStatus puts status in extensions.status.
	showStatus bool
	fields     map[string][]string
	extensions map[string]any // extra entries, copied into extensions
	// masked marks an unknown error: message hidden, error logged.
	masked bool
	// cause is the hidden cause of a known *Error, logged at info level.
	cause error
	// panic is set when the decisive error is a recovered panic.
	panic Panic
	// ownCode and ownStatus are the code and status of a decisive *Error
	// with a status of 500 or more, which clients see as a plain internal
	// error; [Hooks.Report] is told them.
	ownCode   Code
	ownStatus int
}

// bodyTooLarge is the client message of an [http.MaxBytesError].
const bodyTooLarge = "The request body is too large."

// classify decides what clients see of err. It walks the chain in the order
// errors.As does (depth first, Unwrap() []error in order) and stops at the
// first decisive error:
//
//   - a [Panic] (such as *PanicError): masked;
//   - *Error: known, masked when its status is 500 or more;
//   - *gqlerror.Error or *gqlerror.ErrorWithSources without a cause: an
//     engine error whose message and extensions are safe;
//   - StatusCoder: HTTP-style when its status is 400..499, masked otherwise;
//   - *http.MaxBytesError: HTTP-style 413;
//   - ErrNotFound or sql.ErrNoRows (pgx.ErrNoRows matches it): NOT_FOUND.
//
// An error with none of these in its chain is masked.
func classify(err error) (v verdict) {
	// A foreign error type whose methods panic (on a nil receiver, say)
	// must not turn an error answer into a crash.
	defer func() {
		if recover() != nil {
			v = masked()
		}
	}()
	v, ok := decide(err)
	if !ok {
		return masked()
	}
	return v
}

func masked() verdict {
	return verdict{code: CodeInternal, message: MessageInternal, status: http.StatusInternalServerError, masked: true}
}

// decide visits err and then its causes; ok is false when nothing decisive
// was found.
func decide(err error) (v verdict, ok bool) {
	if err == nil {
		return verdict{}, false
	}
	if p, isPanic := err.(Panic); isPanic {
		if e, own := p.(*PanicError); own && e == nil {
			return verdict{}, false
		}
		v = masked()
		v.panic = p
		return v, true
	}
	switch e := err.(type) {
	case *Error:
		if e == nil {
			return verdict{}, false
		}
		status := e.StatusCode()
		code := e.Code
		if code == "" {
			code = CodeForStatus(status) // never an empty extensions.code
		}
		if status >= 500 {
			v = masked()
			v.ownCode, v.ownStatus = code, status
			return v, true
		}
		return verdict{
			code:       code,
			message:    e.message(),
			status:     status,
			showStatus: e.Status != 0 && e.Status == status,
			fields:     e.Fields,
			extensions: e.Extensions,
			cause:      e.Err,
		}, true
	case *gqlerror.Error:
		if e != nil && e.Err == nil {
			return engineVerdict(e.Message, e.Extensions, len(e.Path) > 0), true
		}
	case *gqlerror.ErrorWithSources:
		if e != nil && e.Err == nil {
			return engineVerdict(e.Message, e.Extensions, len(e.Path) > 0), true
		}
	case *http.MaxBytesError:
		return httpStyle(http.StatusRequestEntityTooLarge, bodyTooLarge), true
	}
	if sc, isSC := err.(StatusCoder); isSC {
		if status := sc.StatusCode(); status >= 400 && status <= 499 {
			return httpStyle(status, err.Error()), true
		}
		return masked(), true
	}
	if isNotFound(err) {
		return verdict{code: CodeNotFound, message: MessageNotFound, status: http.StatusNotFound}, true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return decide(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if v, ok := decide(e); ok {
				return v, true
			}
		}
	}
	return verdict{}, false
}

func httpStyle(status int, msg string) verdict {
	return verdict{code: CodeForStatus(status), message: msg, status: status, showStatus: true}
}

// engineVerdict keeps the message and extensions of an error the GraphQL
// engine, parser or validator made. Without a code of its own, an error
// with a path (an execution error, such as a null in a non-null field) gets
// INTERNAL_SERVER_ERROR, one without (a request error) gets
// GRAPHQL_VALIDATION_FAILED.
func engineVerdict(msg string, ext map[string]any, hasPath bool) verdict {
	var code Code
	switch c := ext["code"].(type) {
	case string:
		code = Code(c)
	case Code:
		code = c
	}
	if code == "" {
		code = CodeGraphQLValidation
		if hasPath {
			code = CodeInternal
		}
	}
	return verdict{code: code, message: msg, status: code.Status(), extensions: ext}
}

// isNotFound reports whether err itself (not its causes) is one of the
// not-found sentinels.
func isNotFound(err error) bool {
	if err == ErrNotFound || err == sql.ErrNoRows {
		return true
	}
	if x, ok := err.(interface{ Is(error) bool }); ok {
		return x.Is(ErrNotFound) || x.Is(sql.ErrNoRows)
	}
	return false
}

// position returns the path and locations of the outermost GraphQL errors in
// err's chain that have them. Locations the parser could not place (line or
// column below 1) are dropped.
func position(err error) (path ast.Path, locs []gqlerror.Location) {
	defer func() {
		if recover() != nil {
			path, locs = nil, nil
		}
	}()
	walk(err, func(err error) bool {
		switch e := err.(type) {
		case *gqlerror.Error:
			if e == nil {
				return false
			}
			if path == nil && len(e.Path) > 0 {
				path = e.Path
			}
			if locs == nil {
				locs = placed(e.Locations, func(l gqlerror.Location) (int, int) { return l.Line, l.Column })
			}
		case *gqlerror.ErrorWithSources:
			if e == nil {
				return false
			}
			if path == nil && len(e.Path) > 0 {
				path = e.Path
			}
			if locs == nil {
				locs = placed(e.Locations, func(l gqlerror.SourceLocation) (int, int) { return l.Line, l.Column })
			}
		}
		return path != nil && locs != nil
	})
	return path, locs
}

// placed returns the locations with a line and column of at least 1, or nil.
func placed[L any](in []L, lineCol func(L) (int, int)) []gqlerror.Location {
	var out []gqlerror.Location
	for _, l := range in {
		if line, col := lineCol(l); line >= 1 && col >= 1 {
			out = append(out, gqlerror.Location{Line: line, Column: col})
		}
	}
	return out
}

// walk calls visit on err and its causes, depth first, in the order
// errors.As uses, until visit returns true.
func walk(err error, visit func(error) bool) bool {
	if err == nil {
		return false
	}
	if visit(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return walk(u.Unwrap(), visit)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if walk(e, visit) {
				return true
			}
		}
	}
	return false
}
