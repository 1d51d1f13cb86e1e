package graphql

import (
	"context"
	"errors"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/internal/errclass"
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
		dst = response.AppendError(dst, e)
	}
	return append(dst, ']', '}')
}
