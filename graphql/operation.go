package graphql

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Operation is one operation of a validated document, prepared for
// execution: fragments are expanded, fields looked up and literal arguments
// coerced once. An Operation is safe for concurrent use; cache it together
// with its document.
type Operation struct {
	s    *Schema
	def  *ast.OperationDefinition
	plan *selectionPlan
}

// Prepare selects the operation called name (it may be empty when the
// document has exactly one operation) from a document that
// [Schema.Validate] accepted, and plans it. Its errors wrap
// [ErrInvalidOperation] or [ErrInvalidDocument]. It ends quickly on any
// document: one that spreads a fragment within itself, nests more than
// 1000 fields deep once its fragments are expanded, or expands to more than
// 100,000 field selections is refused with ErrInvalidDocument (validation
// refuses the first, and graphqlhttp's limits the others, earlier).
func (s *Schema) Prepare(doc *ast.QueryDocument, name string) (op *Operation, errs gqlerror.List) {
	defer func() {
		if r := recover(); r != nil {
			op, errs = nil, gqlerror.List{{Message: fmt.Sprintf("The document could not be prepared: %v", r), Err: ErrInvalidDocument}}
		}
	}()
	var def *ast.OperationDefinition
	switch {
	case len(doc.Operations) == 0:
		return nil, gqlerror.List{{Message: "Must provide an operation.", Err: ErrInvalidOperation}}
	case name == "" && len(doc.Operations) > 1:
		return nil, gqlerror.List{{Message: "Must provide operation name if query contains multiple operations.", Err: ErrInvalidOperation}}
	default:
		def = doc.Operations.ForName(name)
		if def == nil {
			return nil, gqlerror.List{{Message: fmt.Sprintf("Unknown operation named %q.", name), Err: ErrInvalidOperation}}
		}
	}
	var root *objectInfo
	switch def.Operation {
	case ast.Query:
		root = s.query
	case ast.Mutation:
		root = s.mutation
	}
	if root == nil {
		return nil, gqlerror.List{{Message: fmt.Sprintf("Schema is not configured to execute %s operation.", def.Operation),
			Locations: []gqlerror.Location{{Line: def.Position.Line, Column: def.Position.Column}}, Err: ErrInvalidOperation}}
	}
	if err := checkShape(doc, def.SelectionSet); err != nil {
		return nil, gqlerror.List{err}
	}
	p := &planner{s: s, doc: doc}
	p.fragments.get(doc, "") // built now: execution plans conditional fields concurrently
	op = &Operation{s: s, def: def, plan: p.planRoot(root, def.SelectionSet)}
	if err := op.checkArguments(op.plan, 0); err != nil {
		return nil, gqlerror.List{err}
	}
	return op, nil
}

// checkArguments reports the first literal argument that could not be
// coerced, before anything runs.
func (op *Operation) checkArguments(sp *selectionPlan, depth int) *gqlerror.Error {
	if sp == nil || depth > 64 {
		return nil
	}
	for _, fp := range sp.fields {
		if fp.argsErr != nil {
			return &gqlerror.Error{Message: fp.argsErr.Error(), Locations: fp.locs[:1], Err: ErrInvalidDocument}
		}
		if err := op.checkArguments(fp.child, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// Kind returns the operation's type: ast.Query or ast.Mutation.
func (op *Operation) Kind() ast.Operation { return op.def.Operation }

// Name returns the operation's name, "" for an anonymous one.
func (op *Operation) Name() string { return op.def.Name }

// Execute runs the operation with the given variables (as decoded from
// JSON, preferably with UseNumber; nil when there are none). Variables are
// coerced first; if any is invalid nothing runs and the result has no Data.
func (op *Operation) Execute(ctx context.Context, variables map[string]any) Result {
	return op.ExecuteAppend(ctx, nil, variables, nil)
}

// ExecuteAppend is like [Operation.Execute] but appends the data to dst (so
// that a pooled buffer can be reused; Result.Data then aliases it) and
// resolves the root fields against root (nil is fine).
func (op *Operation) ExecuteAppend(ctx context.Context, dst []byte, variables map[string]any, root any) Result {
	vars, errs := op.CoerceVariables(variables)
	if len(errs) > 0 {
		return Result{Errors: errs}
	}
	return op.ExecuteCoerced(ctx, dst, vars, root)
}

// CoerceVariables coerces raw variable values (as decoded from JSON) to the
// types the operation declares: defaults applied, Int checked to 32 bits,
// enum names mapped to internal values, custom scalars parsed, unknown
// input fields refused. Every failure is reported; each error wraps
// [ErrInvalidVariables] and is located at its variable definition.
func (op *Operation) CoerceVariables(raw map[string]any) (map[string]any, gqlerror.List) {
	return op.s.coerceVariables(op.def, raw)
}

// ExecuteCoerced executes the operation with variables that
// [Operation.CoerceVariables] returned, appending the data to dst.
func (op *Operation) ExecuteCoerced(ctx context.Context, dst []byte, vars map[string]any, root any) (res Result) {
	e := executors.Get().(*executor)
	*e = executor{ctx: ctx, s: op.s, op: op, buf: dst, path: e.path[:0], cond: conditions{vars: vars}}
	start := len(dst)
	if n := maxResponseBytes(ctx); n > 0 {
		e.maxEnd = start + n
	}
	defer func() {
		if r := recover(); r != nil {
			e.errs = append(e.errs, &gqlerror.Error{Message: "Internal error.", Path: e.astPath(),
				Err: &PanicError{Value: r, Stack: debug.Stack()}})
			res = Result{Data: append(e.buf[:start], "null"...), Errors: e.errs}
		}
		e.release()
	}()
	if !e.execSelection(op.plan, reflect.ValueOf(root)) || e.tooLarge {
		e.buf = append(e.buf[:start], "null"...)
	}
	if e.tooLarge {
		// What went wrong on the way out is no error of its own.
		e.errs = e.errs[:e.limitErr+1]
	}
	return Result{Data: e.buf[start:], Errors: e.errs}
}

type maxResponseKey struct{}

// WithMaxResponseBytes returns a context under which [Operation] execution
// stops once the response data grows past n bytes: the data is then null
// and the one error says so, with extensions.code RESPONSE_TOO_LARGE. The
// query limits bound a document's fields, not the rows its lists return,
// so a few aliases over a list can otherwise ask for gigabytes.
// graphqlhttp sets it from Config.MaxResponseBytes. n <= 0 means no limit.
func WithMaxResponseBytes(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, maxResponseKey{}, n)
}

// maxResponseBytes returns the limit [WithMaxResponseBytes] put in ctx, or 0.
func maxResponseBytes(ctx context.Context) int {
	n, _ := ctx.Value(maxResponseKey{}).(int)
	return n
}
