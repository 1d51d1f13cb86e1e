package relay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// DefaultMaxNodeIDs is the most IDs that nodes(ids:) takes, for a
// [NodesConfig] that leaves MaxIDs 0.
const DefaultMaxNodeIDs = 50

// NodesConfig holds the options of a [Nodes]; the zero value means the
// documented defaults.
type NodesConfig struct {
	// MaxIDs is the most IDs that nodes(ids:) takes: more is a
	// BAD_USER_INPUT error, and the field's cost counts its selection
	// MaxIDs times. 0 means [DefaultMaxNodeIDs].
	MaxIDs int
	// ResolveType, when set, names the object of every value of the Node
	// interface, in place of the Go types of the fetchers' results: for
	// Node objects whose values share a Go type (maps, one struct for
	// several types) or fetchers that return a Go interface. node and
	// nodes check that it names the type of the ID they fetched.
	ResolveType graphql.ResolveTypeFunc
}

// Nodes is the Node interface of a schema, interface Node { id: ID! },
// with a fetch function for each object that implements it: what the
// root fields node(id:) and nodes(ids:) of Relay's Global Object
// Identification need. Make one with [NewNodes], list [Nodes.Interface]
// in the Interfaces of each Node object (whose id field [IDField] makes),
// [Register] each object with its fetcher, and add [Nodes.NodeField] and
// [Nodes.NodesField] to the query type; then build the schema.
//
// Register every object before the schema is built: a Nodes is read-only
// from then on, and safe for concurrent use.
type Nodes struct {
	iface  *graphql.Interface
	cfg    NodesConfig
	maxIDs int
	byName map[string]*nodeType
	// byGo names the object of each Go type that a fetcher returns, and
	// of its pointer or pointee (one object each: Register sees to it).
	byGo map[reflect.Type]string
}

// nodeType is one registered object.
type nodeType struct {
	obj   *graphql.Object
	fetch func(ctx context.Context, id string) (any, error)
}

// NewNodes returns a Nodes without objects and its Node interface.
func NewNodes(cfg NodesConfig) (*Nodes, error) {
	if cfg.MaxIDs < 0 {
		return nil, fmt.Errorf("relay: NodesConfig.MaxIDs %d must not be negative (0 means %d)", cfg.MaxIDs, DefaultMaxNodeIDs)
	}
	n := &Nodes{cfg: cfg, maxIDs: cfg.MaxIDs, byName: map[string]*nodeType{}, byGo: map[reflect.Type]string{}}
	if n.maxIDs == 0 {
		n.maxIDs = DefaultMaxNodeIDs
	}
	n.iface = &graphql.Interface{
		Name:        "Node",
		Description: "An object with a global ID, which node(id:) fetches again.",
		Fields: graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID), Description: "The object's global ID: opaque, and the same for as long as the object exists."},
		},
		ResolveType: n.resolveType,
	}
	if cfg.ResolveType != nil {
		n.iface.ResolveType = cfg.ResolveType
	}
	return n, nil
}

// Interface returns the Node interface, for the Interfaces of the objects
// that implement it.
func (n *Nodes) Interface() *graphql.Interface { return n.iface }

// Register makes obj a Node object fetched by fetch: node(id:) and
// nodes(ids:) call fetch with the local ID of a global ID of type
// obj.Name ([ParseGlobalID]). fetch returns the object's value, or a nil
// value (a nil pointer, map or interface) or an error wrapping
// [errcode.ErrNotFound] when there is none, which makes the node null;
// another error is the field's error, masked as any resolver's.
//
// Without [NodesConfig].ResolveType, the Go type T tells a Node value's
// object (as it does for values of Node from other fields): T must be a
// concrete type, and no other Node object may be registered with T (or
// *T, or the struct T points to). Register refuses a nil argument, an
// obj that does not list [Nodes.Interface] in its Interfaces, an object
// name registered before, and such a T, all in one error.
func Register[T any](n *Nodes, obj *graphql.Object, fetch func(ctx context.Context, id string) (T, error)) error {
	if n == nil || obj == nil || fetch == nil {
		return errors.New("relay: Register needs a Nodes, an object and a fetch function")
	}
	var errs []error
	if !slices.Contains(obj.Interfaces, n.iface) {
		errs = append(errs, fmt.Errorf("relay: Register(%s): the object does not list the Node interface of this Nodes in its Interfaces", obj.Name))
	}
	if _, ok := n.byName[obj.Name]; ok {
		errs = append(errs, fmt.Errorf("relay: Register(%s): an object named %s is registered already", obj.Name, obj.Name))
	}
	t := reflect.TypeFor[T]()
	goTypes := []reflect.Type{t}
	switch {
	case t.Kind() == reflect.Struct:
		goTypes = append(goTypes, reflect.PointerTo(t))
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		goTypes = append(goTypes, t.Elem())
	}
	if n.cfg.ResolveType == nil {
		if t.Kind() == reflect.Interface {
			errs = append(errs, fmt.Errorf("relay: Register(%s): the fetcher returns %s, an interface, which does not tell a value's object: return a concrete type or set NodesConfig.ResolveType", obj.Name, t))
		}
		for _, gt := range goTypes {
			if other, ok := n.byGo[gt]; ok {
				errs = append(errs, fmt.Errorf("relay: Register(%s): %s is the Go type of %s too, so it does not tell a value's object: set NodesConfig.ResolveType", obj.Name, gt, other))
				break
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	nillable := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		nillable = true
	}
	n.byName[obj.Name] = &nodeType{obj: obj, fetch: func(ctx context.Context, id string) (any, error) {
		v, err := fetch(ctx, id)
		if err != nil {
			if errors.Is(err, errcode.ErrNotFound) {
				return nil, nil
			}
			return nil, err
		}
		if nillable {
			if rv := reflect.ValueOf(v); !rv.IsValid() || rv.IsNil() {
				return nil, nil
			}
		}
		return v, nil
	}}
	for _, gt := range goTypes {
		n.byGo[gt] = obj.Name
	}
	return nil
}

// IDField returns the id: ID! field of the Node object called typeName
// whose values are of Go type T: it writes [GlobalID](typeName,
// localID(value)).
func IDField[T any](typeName string, localID func(T) string) graphql.Field {
	return graphql.Field{
		Name:        "id",
		Type:        graphql.NewNonNull(graphql.ID),
		Description: "The object's global ID: opaque, and the same for as long as the object exists.",
		Typed: graphql.Resolver(func(_ context.Context, v T, _ graphql.NoArgs) (string, error) {
			return GlobalID(typeName, localID(v)), nil
		}),
		Cost: graphql.Cost{Weight: -1},
	}
}

// NodeField returns node(id: ID!): Node, which fetches the object of a
// global ID: null when its fetcher finds none. An ID that
// [ParseGlobalID] refuses, or of a type that is not registered, is a
// BAD_USER_INPUT error at the field's path, and nothing is fetched:
//
//	Argument "id" is not a node ID.
func (n *Nodes) NodeField() graphql.Field {
	return graphql.Field{
		Name:        "node",
		Type:        n.iface,
		Description: "Fetches the object of a global ID; null when there is none.",
		Args: []graphql.Argument{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID), Description: "The global ID of the object, as its id field gives it."},
		},
		Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ ID string }) (any, error) {
			nt, local, err := n.parse(args.ID)
			if err != nil {
				return nil, badInput(messageNodeID)
			}
			return n.fetch(ctx, nt, local)
		}),
	}
}

// NodesField returns nodes(ids: [ID!]!): [Node]!, which fetches the
// objects of global IDs: one item per ID, in their order, null for an ID
// whose object is not found. At most [NodesConfig].MaxIDs IDs are taken,
// and the field's cost counts its selection that many times (an upper
// bound known before anything runs). An ID asked twice is fetched once.
// Too many IDs, or one that node(id:) would refuse, is a BAD_USER_INPUT
// error at the field's path, and nothing is fetched:
//
//	Argument "ids" holds 51 IDs, more than the 50 allowed.
//	Argument "ids" holds a value that is not a node ID, at index 3.
//
// A fetcher's error fails the whole field (null, and with it the nearest
// nullable parent).
func (n *Nodes) NodesField() graphql.Field {
	return graphql.Field{
		Name:        "nodes",
		Type:        graphql.NewNonNull(graphql.NewList(n.iface)),
		Description: fmt.Sprintf("Fetches the objects of global IDs (at most %d), in their order; null for an ID whose object is not found.", n.maxIDs),
		Args: []graphql.Argument{
			{Name: "ids", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.ID))), Description: "The global IDs of the objects, as their id fields give them."},
		},
		Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct {
			IDs []string `graphql:"ids"`
		}) ([]any, error) {
			return n.fetchAll(ctx, args.IDs)
		}),
		Cost: graphql.Cost{Size: n.maxIDs},
	}
}

// Check reports, in one error, what would make node or nodes fail on
// schema s: an object of s that implements Node but is not registered
// (node could not fetch it again, and its values would have no object)
// and a registered object that is not the object of that name in s; or
// that the Node type of s is not this Nodes' interface. Call it once
// after the schema is built (in a test, or at start-up).
func (n *Nodes) Check(s *graphql.Schema) error {
	if t := s.Type(n.iface.Name); t != n.iface {
		return errors.New("relay: the schema's Node type is not the interface of this Nodes")
	}
	var errs []error
	for _, t := range s.Types() {
		if o, ok := t.(*graphql.Object); ok && slices.Contains(o.Interfaces, n.iface) && n.byName[o.Name] == nil {
			errs = append(errs, fmt.Errorf("relay: %s implements Node but is not registered with a fetcher", o.Name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(n.byName)) {
		if s.Type(name) != n.byName[name].obj {
			errs = append(errs, fmt.Errorf("relay: the registered object %s is not the schema's type of that name", name))
		}
	}
	return errors.Join(errs...)
}

// The messages of refused node IDs (BAD_USER_INPUT).
const (
	messageNodeID   = `Argument "id" is not a node ID.`
	messageTooMany  = `Argument "ids" holds %d IDs, more than the %d allowed.`
	messageNodesIDs = `Argument "ids" holds a value that is not a node ID, at index %d.`
)

// parse returns the registered object and local ID of global ID s.
func (n *Nodes) parse(s string) (*nodeType, string, error) {
	typeName, local, err := ParseGlobalID(s)
	if err != nil {
		return nil, "", err
	}
	nt := n.byName[typeName]
	if nt == nil {
		return nil, "", ErrInvalidID
	}
	return nt, local, nil
}

// fetch fetches one node; with NodesConfig.ResolveType it checks that the
// value is of the ID's type.
func (n *Nodes) fetch(ctx context.Context, nt *nodeType, local string) (any, error) {
	v, err := nt.fetch(ctx, local)
	if err != nil || v == nil || n.cfg.ResolveType == nil {
		return v, err
	}
	name, err := n.cfg.ResolveType(ctx, v)
	if err != nil {
		return nil, err
	}
	if name != nt.obj.Name {
		return nil, fmt.Errorf("relay: the fetcher of %s returned a value that NodesConfig.ResolveType calls %q", nt.obj.Name, name)
	}
	return v, nil
}

// fetchAll is the resolver of nodes.
func (n *Nodes) fetchAll(ctx context.Context, ids []string) ([]any, error) {
	if len(ids) > n.maxIDs {
		return nil, badInput(messageTooMany, len(ids), n.maxIDs)
	}
	type parsed struct {
		nt    *nodeType
		local string
	}
	ps := make([]parsed, len(ids))
	for i, id := range ids {
		nt, local, err := n.parse(id)
		if err != nil {
			return nil, badInput(messageNodesIDs, i)
		}
		ps[i] = parsed{nt, local}
	}
	out := make([]any, len(ids))
	for i, p := range ps {
		if j := slices.Index(ids[:i], ids[i]); j >= 0 {
			out[i] = out[j]
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := n.fetch(ctx, p.nt, p.local)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// resolveType names the object of a Node value by its Go type, as the
// fetchers' types taught it (when NodesConfig.ResolveType is not set).
func (n *Nodes) resolveType(_ context.Context, v any) (string, error) {
	if name := n.byGo[reflect.TypeOf(v)]; name != "" {
		return name, nil
	}
	return "", fmt.Errorf("relay: no Node object is registered for Go type %T", v)
}
