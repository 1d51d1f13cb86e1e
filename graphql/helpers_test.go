package graphql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

// response runs query against s with the variables given as JSON text
// (decoded with UseNumber, as graphqlhttp decodes them; "" means none) and
// returns the response as MarshalJSON writes it.
func response(t *testing.T, s *graphql.Schema, query, operationName, variables string) string {
	t.Helper()
	return responseCtx(t, context.Background(), s, query, operationName, variables)
}

func responseCtx(t *testing.T, ctx context.Context, s *graphql.Schema, query, operationName, variables string) string {
	t.Helper()
	res := s.Do(ctx, graphql.Request{Query: query, OperationName: operationName, Variables: decodeVariables(t, variables), Present: graphql.Unmasked})
	out, err := res.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	if !json.Valid(out) {
		t.Fatalf("MarshalJSON wrote invalid JSON: %s", out)
	}
	return string(out)
}

// decodeVariables decodes a JSON object with UseNumber; "" gives nil.
func decodeVariables(t *testing.T, text string) map[string]any {
	t.Helper()
	if text == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var vars map[string]any
	if err := d.Decode(&vars); err != nil {
		t.Fatalf("decoding variables %s: %v", text, err)
	}
	return vars
}

// parseValidated parses and validates query, failing the test on any error.
func parseValidated(t *testing.T, s *graphql.Schema, query string) *ast.QueryDocument {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatalf("parsing %q: %v", query, err)
	}
	if errs := validateDoc(s, doc, graphql.ValidateOptions{}); len(errs) > 0 {
		t.Fatalf("validating %q: %v", query, errs)
	}
	return doc
}

// newSchema builds a schema, failing the test on error.
func newSchema(t *testing.T, cfg graphql.SchemaConfig) *graphql.Schema {
	t.Helper()
	s, err := graphql.NewSchema(cfg)
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	return s
}

// calls records resolver calls, safely across goroutines.
type calls struct {
	mu    sync.Mutex
	names []string
}

func (c *calls) add(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names = append(c.names, name)
}

func (c *calls) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.names...)
}

// constant returns a resolver that returns v.
func constant(v any) graphql.ResolveFunc {
	return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return v, nil }
}

// failing returns a resolver that returns err.
func failing(err error) graphql.ResolveFunc {
	return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return nil, err }
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "!" + err.Error()
	}
	return string(b)
}

// execute runs op; an error from Execute (a fault, not a client's) fails
// the test by panicking, since some callers run in goroutines.
func execute(op *graphql.Operation, ctx context.Context, p graphql.ExecParams) graphql.Result {
	res, err := op.Execute(ctx, p)
	if err != nil {
		panic(fmt.Sprintf("Execute: %v", err))
	}
	return res
}

// validate validates doc; a fault (a panicking custom scalar) fails the
// test by panicking.
func validateDoc(s *graphql.Schema, doc *ast.QueryDocument, opts graphql.ValidateOptions) gqlerror.List {
	errs, fault := s.Validate(doc, opts)
	if fault != nil {
		panic(fmt.Sprintf("Validate: %v", fault))
	}
	return errs
}
