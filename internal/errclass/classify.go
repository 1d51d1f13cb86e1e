// Package errclass decides what clients may learn of an error: its code,
// message and status, and whether it is masked. Package errors presents
// and logs on top of it; the GraphQL engine presents with it alone, and
// so imports neither net/http nor a logger.
package errclass

import (
	"database/sql"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
)

// Verdict is what clients may learn about an error.
type Verdict struct {
	Code    errcode.Code
	Message string // client message; MessageInternal when masked
	Status  int    // HTTP status of a REST answer
	// ShowStatus puts Status in extensions.status.
	ShowStatus bool
	Fields     map[string][]string
	Extensions map[string]any // extra entries, copied into extensions
	// Masked marks an unknown error: message hidden, error logged.
	Masked bool
	// Cause is the hidden cause of a known *Error, logged at info level.
	Cause error
	// Panic is set when the decisive error is a recovered panic.
	Panic errcode.Panic
	// OwnCode and OwnStatus are the code and status of a decisive *Error
	// with a status of 500 or more, which clients see as a plain internal
	// error; the error hooks are told them.
	OwnCode   errcode.Code
	OwnStatus int
}

// Extra decides an error of a type the package does not know (a net/http
// one, say), or reports ok false to go on; it is called on each error of
// a chain, after the package's own types.
type Extra func(err error) (v Verdict, ok bool)

// classify decides what clients see of err. It walks the chain in the order
// errors.As does (depth first, Unwrap() []error in order) and stops at the
// first decisive error:
//
//   - a [Panic] (such as *PanicError): masked;
//   - *Error: known, masked when its status is 500 or more;
//   - *gqlerror.Error or *gqlerror.ErrorWithSources without a cause: an
//     engine error whose message and extensions are safe;
//   - StatusCoder: HTTP-style when its status is 400..499, masked otherwise;
//   - what extra decides, when it is not nil;
//   - ErrNotFound or sql.ErrNoRows (pgx.ErrNoRows matches it): NOT_FOUND.
//
// An error with none of these in its chain is masked.
func Classify(err error, extra Extra) (v Verdict) {
	// A foreign error type whose methods panic (on a nil receiver, say)
	// must not turn an error answer into a crash.
	defer func() {
		if recover() != nil {
			v = Masked()
		}
	}()
	v, ok := decide(err, extra)
	if !ok {
		return Masked()
	}
	return v
}

// Masked is the verdict on an unknown error.
func Masked() Verdict {
	return Verdict{Code: errcode.CodeInternal, Message: errcode.MessageInternal, Status: 500, Masked: true}
}

// decide visits err and then its causes; ok is false when nothing decisive
// was found.
func decide(err error, extra Extra) (v Verdict, ok bool) {
	if err == nil {
		return Verdict{}, false
	}
	if p, isPanic := err.(errcode.Panic); isPanic {
		if e, own := p.(*errcode.PanicError); own && e == nil {
			return Verdict{}, false
		}
		v = Masked()
		v.Panic = p
		return v, true
	}
	switch e := err.(type) {
	case *errcode.Error:
		if e == nil {
			return Verdict{}, false
		}
		status := e.StatusCode()
		code := e.Code
		if code == "" {
			code = errcode.CodeForStatus(status) // never an empty extensions.code
		}
		if status >= 500 {
			v = Masked()
			v.OwnCode, v.OwnStatus = code, status
			return v, true
		}
		return Verdict{
			Code:       code,
			Message:    e.ClientMessage(),
			Status:     status,
			ShowStatus: e.Status != 0 && e.Status == status,
			Fields:     e.Fields,
			Extensions: e.Extensions,
			Cause:      e.Err,
		}, true
	case *gqlerror.Error:
		if e != nil && e.Err == nil {
			return engineVerdict(e.Message, e.Extensions, len(e.Path) > 0), true
		}
	case *gqlerror.ErrorWithSources:
		if e != nil && e.Err == nil {
			return engineVerdict(e.Message, e.Extensions, len(e.Path) > 0), true
		}
	}
	if extra != nil {
		if v, ok := extra(err); ok {
			return v, true
		}
	}
	if sc, isSC := err.(errcode.StatusCoder); isSC {
		if status := sc.StatusCode(); status >= 400 && status <= 499 {
			return HTTPStyle(status, err.Error()), true
		}
		return Masked(), true
	}
	if isNotFound(err) {
		return Verdict{Code: errcode.CodeNotFound, Message: errcode.MessageNotFound, Status: 404}, true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return decide(u.Unwrap(), extra)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if v, ok := decide(e, extra); ok {
				return v, true
			}
		}
	}
	return Verdict{}, false
}

// HTTPStyle is the verdict on an error with an HTTP status of 400..499
// and a message for clients.
func HTTPStyle(status int, msg string) Verdict {
	return Verdict{Code: errcode.CodeForStatus(status), Message: msg, Status: status, ShowStatus: true}
}

// engineVerdict keeps the message and extensions of an error the GraphQL
// engine, parser or validator made. Without a code of its own, an error
// with a path (an execution error, such as a null in a non-null field) gets
// INTERNAL_SERVER_ERROR, one without (a request error) gets
// GRAPHQL_VALIDATION_FAILED.
func engineVerdict(msg string, ext map[string]any, hasPath bool) Verdict {
	var code errcode.Code
	switch c := ext["code"].(type) {
	case string:
		code = errcode.Code(c)
	case errcode.Code:
		code = c
	}
	if code == "" {
		code = errcode.CodeGraphQLValidation
		if hasPath {
			code = errcode.CodeInternal
		}
	}
	return Verdict{Code: code, Message: msg, Status: code.Status(), Extensions: ext}
}

// isNotFound reports whether err itself (not its causes) is one of the
// not-found sentinels.
func isNotFound(err error) bool {
	if err == errcode.ErrNotFound || err == sql.ErrNoRows {
		return true
	}
	if x, ok := err.(interface{ Is(error) bool }); ok {
		return x.Is(errcode.ErrNotFound) || x.Is(sql.ErrNoRows)
	}
	return false
}

// Position returns the path and locations of the outermost GraphQL errors in
// err's chain that have them. Locations the parser could not place (line or
// column below 1) are dropped.
func Position(err error) (path ast.Path, locs []gqlerror.Location) {
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
