package relay

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// Register makes obj a Node object fetched by fetch: node(id:) and
// nodes(ids:) call fetch with the local ID of a global ID of type
// obj.Name ([ParseGlobalID]), one call an ID. fetch returns the object's
// value, or a nil value (a nil pointer, map or interface) or an error
// wrapping [errcode.ErrNotFound] when there is none, which makes the node
// null; another error is the field's error, masked as any resolver's.
//
// Without [NodesConfig].ResolveType, the Go type T tells a Node value's
// object (as it does for values of Node from other fields): T must be a
// concrete type, and no other Node object may be registered with T (or
// *T, or the struct T points to). Register refuses a nil argument, an
// obj that does not list [Nodes.Interface] in its Interfaces, an object
// name registered before, and such a T, all in one error.
func Register[T any](n *Nodes, obj *graphql.Object, fetch func(ctx context.Context, id string) (T, error)) error {
	if fetch == nil {
		return errNilArgument("Register")
	}
	present := presenter[T]()
	return register(n, obj, "Register", reflect.TypeFor[T](), func(ctx context.Context, ids []string) ([]any, error) {
		out := make([]any, len(ids))
		for i, id := range ids {
			if i > 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v, err := fetch(ctx, id)
			if err != nil && !errors.Is(err, errcode.ErrNotFound) {
				return nil, err
			}
			if err == nil {
				out[i] = present(v)
			}
		}
		return out, nil
	})
}

// RegisterBatch is [Register] with a fetcher of many objects at once,
// the way to fetch the nodes of one type with one statement: nodes(ids:)
// calls it once with the local IDs of all its IDs of type obj.Name (each
// once, in the order first asked), node(id:) with one. It returns one
// value per ID, in their order, a nil one for an ID it does not find; a
// slice of another length is an error. An error wrapping
// [errcode.ErrNotFound] makes all its nodes null.
func RegisterBatch[T any](n *Nodes, obj *graphql.Object, fetch func(ctx context.Context, ids []string) ([]T, error)) error {
	if fetch == nil {
		return errNilArgument("RegisterBatch")
	}
	present := presenter[T]()
	return register(n, obj, "RegisterBatch", reflect.TypeFor[T](), func(ctx context.Context, ids []string) ([]any, error) {
		vs, err := fetch(ctx, ids)
		switch {
		case errors.Is(err, errcode.ErrNotFound):
			return make([]any, len(ids)), nil
		case err != nil:
			return nil, err
		case len(vs) != len(ids):
			return nil, fmt.Errorf("relay: the batch fetcher of %s returned %d values for %d IDs", obj.Name, len(vs), len(ids))
		}
		out := make([]any, len(ids))
		for i, v := range vs {
			out[i] = present(v)
		}
		return out, nil
	})
}

func errNilArgument(fn string) error {
	return fmt.Errorf("relay: %s needs a Nodes, an object and a fetch function", fn)
}

// register checks and records obj, whose fetcher returns values of Go
// type t.
func register(n *Nodes, obj *graphql.Object, fn string, t reflect.Type, fetch func(ctx context.Context, ids []string) ([]any, error)) error {
	if n == nil || obj == nil {
		return errNilArgument(fn)
	}
	var errs []error
	if !slices.Contains(obj.Interfaces, n.iface) {
		errs = append(errs, fmt.Errorf("relay: %s(%s): the object does not list the Node interface of this Nodes in its Interfaces", fn, obj.Name))
	}
	if _, ok := n.byName[obj.Name]; ok {
		errs = append(errs, fmt.Errorf("relay: %s(%s): an object named %s is registered already", fn, obj.Name, obj.Name))
	}
	goTypes := []reflect.Type{t}
	switch {
	case t.Kind() == reflect.Struct:
		goTypes = append(goTypes, reflect.PointerTo(t))
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		goTypes = append(goTypes, t.Elem())
	}
	if n.cfg.ResolveType == nil {
		if t.Kind() == reflect.Interface {
			errs = append(errs, fmt.Errorf("relay: %s(%s): the fetcher returns %s, an interface, which does not tell a value's object: return a concrete type or set NodesConfig.ResolveType", fn, obj.Name, t))
		}
		for _, gt := range goTypes {
			if other, ok := n.byGo[gt]; ok {
				errs = append(errs, fmt.Errorf("relay: %s(%s): %s is the Go type of %s too, so it does not tell a value's object: set NodesConfig.ResolveType", fn, obj.Name, gt, other))
				break
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	n.byName[obj.Name] = &nodeType{obj: obj, fetch: fetch}
	for _, gt := range goTypes {
		n.byGo[gt] = obj.Name
	}
	return nil
}

// presenter returns the function that turns a fetched T into the node's
// value: nil for a nil pointer, map, slice or interface.
func presenter[T any]() func(T) any {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return func(v T) any {
			if rv := reflect.ValueOf(v); !rv.IsValid() || rv.IsNil() {
				return nil
			}
			return v
		}
	}
	return func(v T) any { return v }
}

// idDescription is the description of the id fields of Node and of its
// objects.
const idDescription = "The object's global ID, by which node(id:) fetches it."

// IDField returns the id: ID! field of the Node object called typeName
// whose values are of Go type T: it writes [GlobalID](typeName,
// localID(value)).
func IDField[T any](typeName string, localID func(T) string) graphql.Field {
	return graphql.Field{
		Name:        "id",
		Type:        graphql.NewNonNull(graphql.ID),
		Description: idDescription,
		Typed: graphql.Resolver(func(_ context.Context, v T, _ graphql.NoArgs) (string, error) {
			return GlobalID(typeName, localID(v)), nil
		}),
		Cost: graphql.Cost{Weight: -1},
	}
}
