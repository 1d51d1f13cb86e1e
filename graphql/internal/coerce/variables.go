package coerce

import (
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// ErrInvalidVariables is graphql.ErrInvalidVariables: the cause
// (errors.Is) of every error reported for variable values that cannot be
// coerced to their declared types.
var ErrInvalidVariables = errors.New("graphql: invalid variables")

// TypeFromAST turns a validated document's type reference into a schema
// type, finding named types in named (by name); nil when one is unknown.
func TypeFromAST(named map[string]*schema.Type, t *ast.Type) *schema.Type {
	var out *schema.Type
	if t.Elem != nil {
		inner := TypeFromAST(named, t.Elem)
		if inner == nil {
			return nil
		}
		out = &schema.Type{Kind: schema.KindList, Of: inner}
	} else {
		out = named[t.NamedType]
		if out == nil {
			return nil
		}
	}
	if t.NonNull {
		out = &schema.Type{Kind: schema.KindNonNull, Of: out}
	}
	return out
}

// Variables coerces the raw variables of a request for the variable
// definitions defs, finding named types in named (by name); defaults, when not
// nil, holds by index the copies of the defaults to read instead of the
// definitions' own (package plan's literalcopies.go). Every failure is
// reported, each located at its variable definition; fault is the first
// panic of a custom scalar's parser, a server bug rather than bad input,
// which the caller answers apart.
func Variables(named map[string]*schema.Type, defs ast.VariableDefinitionList, defaults []*ast.Value, raw map[string]any) (_ map[string]any, errs gqlerror.List, fault error) {
	if len(defs) == 0 {
		return nil, nil, nil
	}
	out := make(map[string]any, len(defs))
	for i, def := range defs {
		t := TypeFromAST(named, def.Type)
		locs := []gqlerror.Location{{Line: def.Position.Line, Column: def.Position.Column}}
		if t == nil || !t.IsInput() {
			errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" expected value of type %q which cannot be used as an input type.", def.Variable, def.Type.String())))
			continue
		}
		v, present := raw[def.Variable]
		if !present {
			if def.DefaultValue != nil {
				lit := def.DefaultValue
				if defaults != nil && defaults[i] != nil {
					lit = defaults[i]
				}
				val, err := Literal(lit, t, nil)
				if err != nil {
					errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" has an invalid default value: %s", def.Variable, err.Error())))
					continue
				}
				out[def.Variable] = val
			} else if def.Type.NonNull {
				errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" of required type %q was not provided.", def.Variable, def.Type.String())))
			}
			continue
		}
		if v == nil && def.Type.NonNull {
			errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" of non-null type %q must not be null.", def.Variable, def.Type.String())))
			continue
		}
		var st coercion
		val := coerceInput(v, t, nil, &st)
		ierrs := st.errs
		for _, ie := range ierrs {
			at := ""
			if len(ie.path) > 0 {
				at = fmt.Sprintf(" at %q", printPath(def.Variable, ie.path))
			}
			ve := variableError(locs, fmt.Sprintf("Variable \"$%s\" got invalid value %s%s; %s", def.Variable, response.Inspect(ie.val), at, ie.msg))
			ve.Extensions = ie.ext
			if ie.panic != nil && fault == nil {
				fault = ie.panic
			}
			errs = append(errs, ve)
		}
		if len(ierrs) == 0 {
			out[def.Variable] = val
		}
	}
	if fault != nil {
		return nil, nil, fault
	}
	return out, errs, nil
}

// variableError is an error of a variable, located at its definition.
func variableError(locs []gqlerror.Location, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Locations: locs, Err: ErrInvalidVariables}
}
