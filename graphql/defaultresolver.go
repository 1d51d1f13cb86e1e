package graphql

import (
	"context"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// defaultResolver is the default resolution of fi as a ResolveFunc, for
// middleware to wrap (Field.Middleware on a field without Resolve).
func defaultResolver(fi *schema.Field) ResolveFunc {
	return func(ctx context.Context, parent any, _ Args, _ ResolveInfo) (any, error) {
		v, err := fi.Read.Read(&ctx, reflect.ValueOf(parent))
		if err != nil || !v.IsValid() || !v.CanInterface() {
			return nil, err
		}
		return v.Interface(), nil
	}
}

// mapSAType is the type of the maps the default resolver reads by key.
var mapSAType = reflect.TypeFor[map[string]any]()

// accessor is what the default resolver reads for a field of values of
// one Go type, as the type checker (typecheck.go) sees it.
type accessor struct {
	method   int   // method index, or -1
	index    []int // struct field path, when there is no method
	derefPtr bool  // the type is a pointer to the struct
}

func newAccessor(name string, t reflect.Type) accessor {
	var a accessor
	a.method, a.index, a.derefPtr = access.Lookup(name, t)
	return a
}
