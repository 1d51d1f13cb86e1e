package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/internal/jsonnum"
)

// Result is the outcome of an execution. Data is the JSON object of the
// "data" entry (it may be the literal null), or nil when the request failed
// before execution (invalid variables), in which case the response has no
// "data" entry at all. Errors are in the order they happened.
type Result struct {
	Data   []byte
	Errors gqlerror.List
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
