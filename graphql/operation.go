package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Operation is one operation of a validated document, prepared for
// execution: fragments are expanded, fields looked up and literal arguments
// coerced once. An Operation is safe for concurrent use; cache it together
// with its document.
type Operation struct {
	s    *Schema
	doc  *ast.QueryDocument
	def  *ast.OperationDefinition
	root *objectInfo
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
	op = &Operation{s: s, doc: doc, def: def, root: root, plan: p.planRoot(root, def.SelectionSet)}
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

// Result is the outcome of an execution. Data is the JSON object of the
// "data" entry (it may be the literal null), or nil when the request failed
// before execution (invalid variables), in which case the response has no
// "data" entry at all. Errors are in the order they happened.
type Result struct {
	Data   []byte
	Errors gqlerror.List
}

// MarshalJSON writes the response as graphql-js does: {"data":…} and,
// when there are errors, "errors":[…] (after data, or alone).
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON appends the response JSON to dst.
func (r Result) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	if r.Errors != nil && r.Data == nil {
		dst = append(dst, `"errors":`...)
		return appendErrors(dst, r.Errors)
	}
	if r.Data != nil {
		dst = append(dst, `"data":`...)
		dst = append(dst, r.Data...)
	}
	if len(r.Errors) > 0 {
		dst = append(dst, `,"errors":`...)
		var err error
		if dst, err = appendErrors(dst, r.Errors); err != nil {
			return nil, err
		}
		return dst, nil
	}
	return append(dst, '}'), nil
}

func appendErrors(dst []byte, errs gqlerror.List) ([]byte, error) {
	dst = append(dst, '[')
	for i, e := range errs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // "<EOF>" as graphql-js writes it
		if err := enc.Encode(errorObject(e)); err != nil {
			return nil, err
		}
		dst = append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	return append(dst, ']', '}'), nil
}

// errorObject orders an error's members as graphql-js does.
func errorObject(e *gqlerror.Error) any {
	type loc struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	type obj struct {
		Message    string         `json:"message"`
		Locations  []loc          `json:"locations,omitempty"`
		Path       ast.Path       `json:"path,omitempty"`
		Extensions map[string]any `json:"extensions,omitempty"`
	}
	o := obj{Message: e.Message, Path: e.Path, Extensions: e.Extensions}
	for _, l := range e.Locations {
		o.Locations = append(o.Locations, loc{l.Line, l.Column})
	}
	return o
}

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
	if n, ok := ctx.Value(maxResponseKey{}).(int); ok && n > 0 {
		e.maxEnd, e.maxBytes = start+n, n
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

// executors recycles executors (and their path stacks) between requests.
var executors = sync.Pool{New: func() any { return &executor{path: make([]pathSeg, 0, 16)} }}

func (e *executor) release() {
	path := e.path[:0]
	if cap(path) > 256 {
		path = nil
	}
	*e = executor{path: path}
	executors.Put(e)
}

// Do parses, validates, prepares and executes a query in one call, with
// introspection allowed and no limits. It is meant for tests, scripts and
// trusted callers; an HTTP endpoint should use graphqlhttp, which bounds
// every step and caches documents.
func (s *Schema) Do(ctx context.Context, query, operationName string, variables map[string]any) Result {
	doc, perr := ParseQuery(query, 0)
	if perr != nil {
		return Result{Errors: gqlerror.List{perr}}
	}
	if errs := s.Validate(doc, ValidateOptions{}); len(errs) > 0 {
		return Result{Errors: errs}
	}
	op, errs := s.Prepare(doc, operationName)
	if len(errs) > 0 {
		return Result{Errors: errs}
	}
	return op.Execute(ctx, variables)
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
		if !isJSONNumber(string(x)) {
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

// isJSONNumber reports whether s is a number as JSON writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
