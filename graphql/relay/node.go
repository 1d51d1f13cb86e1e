package relay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

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
// [Register] each object with its fetcher (or [RegisterBatch], with one
// that fetches many at once), and add [Nodes.NodeField] and
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
	obj *graphql.Object
	// fetch returns one value for each local ID, nil where there is none.
	fetch func(ctx context.Context, ids []string) ([]any, error)
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
			{Name: "id", Type: graphql.NewNonNull(graphql.ID), Description: idDescription},
		},
		ResolveType: n.ResolveType,
	}
	return n, nil
}

// Interface returns the Node interface, for the Interfaces of the objects
// that implement it.
func (n *Nodes) Interface() *graphql.Interface { return n.iface }

// ResolveType names the object of a value of a registered Node object:
// by NodesConfig.ResolveType when set, else by the Go type its fetcher
// returns (T, *T or the struct T points to); another value is an error.
// It is the Node interface's ResolveType, and serves as well for a union
// or another interface whose objects are all registered, which the Go
// types of their fetchers would not otherwise name:
//
//	result := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author}, ResolveType: nodes.ResolveType}
func (n *Nodes) ResolveType(ctx context.Context, v any) (string, error) {
	if n.cfg.ResolveType != nil {
		return n.cfg.ResolveType(ctx, v)
	}
	if name := n.byGo[reflect.TypeOf(v)]; name != "" {
		return name, nil
	}
	return "", fmt.Errorf("relay: no Node object is registered for Go type %T", v)
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
			vs, err := nt.fetch(ctx, []string{local})
			if err != nil {
				return nil, err
			}
			return n.checkType(ctx, nt, vs[0])
		}),
	}
}

// NodesField returns nodes(ids: [ID!]!): [Node]!, which fetches the
// objects of global IDs: one item per ID, in their order, null for an ID
// whose object is not found. At most [NodesConfig].MaxIDs IDs are taken,
// and the field's cost counts its selection that many times (an upper
// bound known before anything runs). An ID asked twice is fetched once,
// and a fetcher given with [RegisterBatch] is called once for all the IDs
// of its object.
//
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

// checkType returns v, a value that nt's fetcher returned; with
// NodesConfig.ResolveType, an error unless it names nt's object.
func (n *Nodes) checkType(ctx context.Context, nt *nodeType, v any) (any, error) {
	if v == nil || n.cfg.ResolveType == nil {
		return v, nil
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

// batch is the IDs of one object that nodes fetches in one call.
type batch struct {
	nt     *nodeType
	locals []string
	at     []int // the index in ids of each local ID
}

// fetchAll is the resolver of nodes: it checks every ID, then calls each
// object's fetcher once with its IDs, each ID once, in the order first
// asked.
func (n *Nodes) fetchAll(ctx context.Context, ids []string) ([]any, error) {
	if len(ids) > n.maxIDs {
		return nil, badInput(messageTooMany, len(ids), n.maxIDs)
	}
	var batches []*batch
	first := make(map[string]int, len(ids)) // a global ID's first index: IDs have one spelling
	for i, id := range ids {
		nt, local, err := n.parse(id)
		if err != nil {
			return nil, badInput(messageNodesIDs, i)
		}
		if _, ok := first[id]; ok {
			continue
		}
		first[id] = i
		k := slices.IndexFunc(batches, func(b *batch) bool { return b.nt == nt })
		if k < 0 {
			k = len(batches)
			batches = append(batches, &batch{nt: nt})
		}
		batches[k].locals = append(batches[k].locals, local)
		batches[k].at = append(batches[k].at, i)
	}
	out := make([]any, len(ids))
	for _, b := range batches {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vs, err := b.nt.fetch(ctx, b.locals)
		if err != nil {
			return nil, err
		}
		for k, v := range vs {
			if out[b.at[k]], err = n.checkType(ctx, b.nt, v); err != nil {
				return nil, err
			}
		}
	}
	for i, id := range ids {
		out[i] = out[first[id]]
	}
	return out, nil
}
