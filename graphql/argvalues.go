package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file connects package graphql to the coercion of input values
// (package internal/coerce).

// argsOf wraps the argument values coerce.ArgumentValues returns for a
// resolver.
func argsOf(m map[string]any, err error) (Args, error) { return Args{m: m}, err }

// typeNamed returns the compiled named type called name, or nil; coercion
// finds the types of variables with it.
func (s *Schema) typeNamed(name string) *schema.Type {
	nt := s.named[name]
	if nt == nil {
		return nil
	}
	return s.nodes[nt]
}
