package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/errclass"
	"github.com/gqlkit/gqlkit/internal/jsonnum"
	"github.com/gqlkit/gqlkit/limits"
)

// Result is the outcome of an execution. Data is the JSON object of the
// "data" entry (it may be the literal null), or nil when the request failed
// before execution (invalid variables), in which case the response has no
// "data" entry at all. Errors are in the order they happened.
type Result struct {
	Data   []byte
	Errors gqlerror.List
	// Cost is the operation's cost (see [Cost]) when it was computed:
	// when ExecParams.MaxCost bounds it (it does unless negative) or
	// ExecParams.Tracer is set; 0 otherwise.
	Cost int
}

// Request is one GraphQL request for [Schema.Do].
type Request struct {
	Query         string
	OperationName string
	// Variables are the raw variable values, as decoded from JSON; nil
	// when there are none.
	Variables map[string]any
	// Root is the value the root fields are resolved against.
	Root any
	// Present turns each error of the result into what the caller sees:
	// pass the GraphQL method of the application's presenter (package
	// errors), which also logs and reports the masked errors. nil masks
	// errors as that presenter does, without logging: a resolver's plain
	// error becomes "Internal server error.", coded errors keep their
	// message, and each presented error keeps the original as its Err
	// (never written in JSON), for the caller to log. [Unmasked] keeps
	// every error as it is, for tests and trusted callers.
	Present func(ctx context.Context, err error) *gqlerror.Error
}

// Unmasked is the [Request.Present] that keeps each error as it is.
func Unmasked(_ context.Context, err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge
	}
	return gqlerror.WrapPath(nil, err)
}

// Do prepares and executes a query in one call, with introspection
// allowed, no limits and no cache, and presents the errors (masked unless
// req.Present says otherwise). It is meant for tests, scripts and trusted
// callers; an HTTP endpoint should use graphqlhttp, which bounds every
// step and caches documents. Both prepare operations with a [Preparer].
func (s *Schema) Do(ctx context.Context, req Request) Result {
	res, requestErrs, fault := s.do(ctx, req)
	if fault != nil {
		res = Result{Errors: gqlerror.List{{Message: fault.Error(), Err: fault}}}
	}
	if len(res.Errors) == 0 {
		return res
	}
	present := req.Present
	if present == nil {
		present = masked
		if requestErrs && fault == nil {
			for i, e := range res.Errors {
				res.Errors[i] = RequestError(e)
			}
		}
	}
	for i, e := range res.Errors {
		res.Errors[i] = present(ctx, e)
	}
	return res
}

// do prepares and executes req; requestErrs says that the errors of the
// result were found before execution (they are the engine's own, not
// presented yet).
func (s *Schema) do(ctx context.Context, req Request) (res Result, requestErrs bool, fault error) {
	off := limits.Config{MaxLength: limits.NoLimit, MaxTokens: limits.NoLimit, MaxNesting: limits.NoLimit,
		MaxDepth: limits.NoLimit, MaxNodes: limits.NoLimit, MaxCost: limits.NoLimit}
	p := NewPreparer(s, PrepareConfig{Limits: off, CacheSize: -1})
	p.raw, p.scan, p.checkDoc = true, false, false
	pr, errs, fault := p.Prepare(ctx, req.Query, PrepareOptions{OperationName: req.OperationName, Introspection: true})
	defer pr.Release()
	if fault != nil || errs != nil {
		return Result{Errors: errs}, true, fault
	}
	res, err := pr.Operation.Execute(ctx, ExecParams{Variables: req.Variables, Root: req.Root,
		MaxCost: limits.NoLimit, MaxResponseBytes: -1})
	return res, res.Data == nil, err
}

// masked is the presentation of [Request.Present] nil.
func masked(_ context.Context, err error) *gqlerror.Error {
	v := errclass.Classify(err, nil)
	path, locs := errclass.Position(err)
	e := errclass.GraphQL(v, v.Message, path, locs)
	e.Err = err
	return e
}

// MarshalJSON writes the response as graphql-js does (see
// [Result.AppendJSON]), with the errors as they are.
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil, nil), nil }

// AppendJSON appends the response to dst as graphql-js writes it:
// {"data":…} and, when there are errors, "errors":[…] after the data, or
// alone when there is no data. Each error is {"message", "locations",
// "path", "extensions"}, the last three only when there are some;
// locations without a line and column are left out. present, when not nil,
// turns each error into what the client sees first (graphqlhttp passes
// its presenter); an error whose extensions cannot be written as JSON is
// written as a masked internal error instead. This is the kit's one writer
// of GraphQL responses.
func (r Result) AppendJSON(dst []byte, present func(*gqlerror.Error) *gqlerror.Error) []byte {
	dst = append(dst, '{')
	if r.Data != nil {
		dst = append(dst, `"data":`...)
		dst = append(dst, r.Data...)
		if len(r.Errors) == 0 {
			return append(dst, '}')
		}
		dst = append(dst, ',')
	}
	if r.Errors == nil && r.Data == nil {
		return append(dst, '}')
	}
	dst = append(dst, `"errors":[`...)
	for i, e := range r.Errors {
		if i > 0 {
			dst = append(dst, ',')
		}
		if present != nil {
			e = present(e)
		}
		dst = appendError(dst, e)
	}
	return append(dst, ']', '}')
}

// internalErrorJSON stands for an error that cannot be written.
const internalErrorJSON = `{"message":"` + errcode.MessageInternal + `","extensions":{"code":"` + string(errcode.CodeInternal) + `"}}`

// appendError writes one error object.
func appendError(dst []byte, e *gqlerror.Error) []byte {
	if e == nil {
		return append(dst, internalErrorJSON...)
	}
	var ext []byte
	if len(e.Extensions) > 0 {
		var err error
		if ext, err = marshal(e.Extensions); err != nil {
			return append(dst, internalErrorJSON...)
		}
	}
	dst = append(dst, `{"message":`...)
	dst = appendString(dst, e.Message)
	n := 0
	for _, l := range e.Locations {
		if l.Line < 1 || l.Column < 1 {
			continue
		}
		if n == 0 {
			dst = append(dst, `,"locations":[`...)
		} else {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, `{"line":`...)
		dst = strconv.AppendInt(dst, int64(l.Line), 10)
		dst = append(dst, `,"column":`...)
		dst = strconv.AppendInt(dst, int64(l.Column), 10)
		dst = append(dst, '}')
	}
	if n > 0 {
		dst = append(dst, ']')
	}
	if len(e.Path) > 0 {
		dst = append(dst, `,"path":[`...)
		for i, p := range e.Path {
			if i > 0 {
				dst = append(dst, ',')
			}
			switch p := p.(type) {
			case ast.PathIndex:
				dst = strconv.AppendInt(dst, int64(p), 10)
			case ast.PathName:
				dst = appendString(dst, string(p))
			}
		}
		dst = append(dst, ']')
	}
	if ext != nil {
		dst = append(dst, `,"extensions":`...)
		dst = append(dst, ext...)
	}
	return append(dst, '}')
}

// marshal is json.Marshal without escaping HTML characters, as the kit
// writes every JSON answer.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxJSONDepth bounds how deeply a custom scalar's serialised value may
// nest, and maxJSONParts its parts: a map that contains itself, or whose
// maps share sub-maps (2^depth parts to write), is an error, not an endless
// walk.
const (
	maxJSONDepth = 256
	maxJSONParts = 1 << 20
)

// appendJSONValue writes what a custom scalar's Serialize returned.
func appendJSONValue(dst []byte, v any) ([]byte, error) {
	parts := 0
	return appendJSONPart(dst, v, 0, &parts)
}

func appendJSONPart(dst []byte, v any, depth int, parts *int) ([]byte, error) {
	if depth > maxJSONDepth {
		return dst, fmt.Errorf("the value is nested more than %d levels deep", maxJSONDepth)
	}
	if *parts++; *parts > maxJSONParts {
		return dst, fmt.Errorf("the value has more than %d parts", maxJSONParts)
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return appendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case json.Number:
		if !jsonnum.IsNumber(string(x)) {
			return dst, fmt.Errorf("json.Number %s is not a JSON number", inspect(string(x)))
		}
		return append(dst, x...), nil
	case json.Marshaler:
		b, err := x.MarshalJSON()
		if err != nil {
			return dst, err
		}
		// Written into the response as it is, so it must be JSON; it is
		// compacted, as encoding/json does.
		start := len(dst)
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return dst[:start], fmt.Errorf("MarshalJSON of %T returned invalid JSON: %w", x, err)
		}
		return append(dst, buf.Bytes()...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSONPart(dst, e, depth+1, parts); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendJSONPart(dst, x[k], depth+1, parts); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	if f, ok := numberOf(v); ok {
		if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
			return dst, fmt.Errorf("cannot represent %v in JSON", v)
		}
		if s, ok := exactInt(v); ok {
			return append(dst, s...), nil
		}
		return appendFloat(dst, f), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...), nil
}
