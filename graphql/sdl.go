package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/introspection"
	"github.com/gqlkit/gqlkit/graphql/internal/sdl"
)

// SDL returns the schema in the Schema Definition Language, formatted as
// graphql-js's printSchema formats it: built-in scalars, introspection
// types and the specified directives are left out, and types come in the
// order of [Schema.Types].
func (s *Schema) SDL() string {
	order := make([]string, len(s.types))
	for i, t := range s.types {
		order[i] = t.TypeName()
	}
	return sdl.Print(s.ast, order, introspection.DefaultDeprecationReason)
}
