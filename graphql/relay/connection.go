package relay

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gqlkit/gqlkit/graphql"
)

// Page size defaults, for a [Config] that leaves them 0.
const (
	// DefaultPageSize is the size of a page asked with neither first nor
	// last.
	DefaultPageSize = 10
	// DefaultMaxPageSize is the largest page: a larger first or last is
	// clamped to it.
	DefaultMaxPageSize = 50
)

// Config holds what a connection may have besides its node type, key and
// load function; the zero value means the documented defaults.
type Config[P any] struct {
	// Name is the prefix of the connection's type names: NameConnection
	// and NameEdge. "" means the node type's name.
	Name string
	// Description is the field's description.
	Description string
	// Args are more arguments of the field (filters, an order), after
	// first, after, last and before; the load and count functions
	// receive them in Request.Args. None may be called first, after,
	// last or before.
	Args []graphql.Argument
	// DefaultPageSize is the size of a page asked with neither first nor
	// last; 0 means [DefaultPageSize].
	DefaultPageSize int
	// MaxPageSize is the largest page; a larger first or last is clamped
	// to it, and the field's cost counts it (see the package
	// documentation). 0 means [DefaultMaxPageSize].
	MaxPageSize int
	// Count, when set, gives the connection a totalCount: Int! field,
	// the number of nodes of the whole list (for the parent and args),
	// called only when the client selects it.
	Count func(ctx context.Context, parent P, args graphql.Args) (int, error)
	// PageInfo is the PageInfo type of the schema. The connections of one
	// schema share one (NewSchema refuses two types of one name): make it
	// once with [NewPageInfo] and give it to each. nil means a new one,
	// for a schema with a single connection.
	PageInfo *graphql.Object
	// Secret, when set, keys the tags of the cursors, so that a client
	// cannot forge one. Without it a cursor that was changed or comes
	// from another connection is refused all the same.
	Secret []byte
}

// LoadFunc reads one page of a connection for the parent, as [Request]
// describes: at most req.Limit nodes, past req.After and before
// req.Before, in the list's order or, when req.Backward is set, in the
// reverse order from the end (nearest to req.Before first).
type LoadFunc[P, T, K any] func(ctx context.Context, parent P, req Request[K]) ([]T, error)

// Request is one page as a load function reads it.
type Request[K any] struct {
	// After, when not nil, is the key of the after cursor: the page holds
	// only nodes that come after it in the list's order.
	After *K
	// Before, when not nil, is the key of the before cursor: the page
	// holds only nodes that come before it.
	Before *K
	// Backward is set when the client asked for the last nodes (last):
	// read in the reverse of the list's order, from Before or from the
	// end of the list.
	Backward bool
	// Limit is the most nodes to read: the page size plus one, the node
	// that tells that another page follows (or, backward, precedes).
	Limit int
	// Args are the field's other arguments ([Config].Args).
	Args graphql.Args
	// Info describes the connection field: a load function asks it what
	// the client selected of the nodes, with paths such as
	// "edges.node.author", to load related rows with the page.
	Info graphql.ResolveInfo
}

// Size returns the page size: Limit - 1.
func (r Request[K]) Size() int { return r.Limit - 1 }

// Connection is a connection over nodes of Go type T, with parent P and
// keys K: its types, and the field that returns it. Make one with [New];
// it is safe for concurrent use.
type Connection[P, T, K any] struct {
	conn     *graphql.Object
	edge     *graphql.Object
	pageInfo *graphql.Object
	key      func(T) K
	load     LoadFunc[P, T, K]
	cfg      Config[P]
	defSize  int
	maxSize  int
	shape    string // of K, in the cursors' binding
}

// reserved are the arguments of every connection field.
var reserved = []string{"first", "after", "last", "before"}

// New returns the connection of nodes of type node, whose Go values are
// T: key returns a node's key (the values the list is ordered by, which
// make a node unique; a struct that encoding/json writes and reads back
// unchanged), and load reads a page. It reports every problem of its
// arguments and cfg at once.
//
// node is an object, or an interface or union (a page of search results,
// or of any [Nodes] object): each node's object is then found as for any
// field of that type (see [graphql.ResolveTypeFunc]), and T is usually a
// Go interface or any.
func New[P, T, K any](node graphql.NamedType, key func(T) K, load LoadFunc[P, T, K], cfg Config[P]) (*Connection[P, T, K], error) {
	var errs []error
	nodeName, err := nodeTypeName(node)
	if err != nil {
		errs = append(errs, err)
	}
	if key == nil {
		errs = append(errs, errors.New("relay: the key function is nil"))
	}
	if load == nil {
		errs = append(errs, errors.New("relay: the load function is nil"))
	}
	c := &Connection[P, T, K]{key: key, load: load, cfg: cfg,
		defSize: cfg.DefaultPageSize, maxSize: cfg.MaxPageSize, shape: keyShape(reflect.TypeFor[K]())}
	if c.defSize == 0 {
		c.defSize = DefaultPageSize
	}
	if c.maxSize == 0 {
		c.maxSize = DefaultMaxPageSize
	}
	switch {
	case cfg.DefaultPageSize < 0 || cfg.MaxPageSize < 0:
		errs = append(errs, fmt.Errorf("relay: DefaultPageSize %d and MaxPageSize %d must not be negative (0 means the defaults, %d and %d)",
			cfg.DefaultPageSize, cfg.MaxPageSize, DefaultPageSize, DefaultMaxPageSize))
	case c.defSize > c.maxSize:
		errs = append(errs, fmt.Errorf("relay: DefaultPageSize %d is larger than MaxPageSize %d", c.defSize, c.maxSize))
	}
	for _, a := range cfg.Args {
		if slices.Contains(reserved, a.Name) {
			errs = append(errs, fmt.Errorf("relay: Config.Args: %q is an argument of every connection", a.Name))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	name := cfg.Name
	if name == "" {
		name = nodeName
	}
	c.pageInfo = cfg.PageInfo
	if c.pageInfo == nil {
		c.pageInfo = NewPageInfo()
	}
	c.edge = &graphql.Object{
		Name:        name + "Edge",
		Description: "An edge of a " + name + "Connection: a node and its cursor.",
		Fields: graphql.Fields{
			{Name: "cursor", Type: graphql.NewNonNull(graphql.String), Description: "The node's cursor, for after and before."},
			{Name: "node", Type: graphql.NewNonNull(node)},
		},
	}
	fields := graphql.Fields{
		{Name: "edges", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(c.edge)))},
		{Name: "pageInfo", Type: graphql.NewNonNull(c.pageInfo)},
	}
	if cfg.Count != nil {
		fields = append(fields, graphql.Field{Name: "totalCount", Type: graphql.NewNonNull(graphql.Int),
			Description: "The number of nodes in the whole list."})
	}
	c.conn = &graphql.Object{
		Name:        name + "Connection",
		Description: "A page of " + nodeName + " nodes.",
		Fields:      fields,
	}
	return c, nil
}

// nodeTypeName returns the name of a connection's node type, or why it
// cannot be one.
func nodeTypeName(node graphql.NamedType) (string, error) {
	switch t := node.(type) {
	case *graphql.Object:
		if t != nil {
			return t.Name, nil
		}
	case *graphql.Interface:
		if t != nil {
			return t.Name, nil
		}
	case *graphql.Union:
		if t != nil {
			return t.Name, nil
		}
	case nil:
	default:
		return "", fmt.Errorf("relay: the node type %s is not an object, an interface or a union", node.TypeName())
	}
	return "", errors.New("relay: the node type is nil")
}

// NewPageInfo returns a new PageInfo type, to share between the
// connections of a schema ([Config].PageInfo). Its values are [PageInfo].
func NewPageInfo() *graphql.Object {
	return &graphql.Object{
		Name:        "PageInfo",
		Description: "Where a page of a connection stands in its list.",
		Fields: graphql.Fields{
			{Name: "hasNextPage", Type: graphql.NewNonNull(graphql.Boolean)},
			{Name: "hasPreviousPage", Type: graphql.NewNonNull(graphql.Boolean)},
			{Name: "startCursor", Type: graphql.String},
			{Name: "endCursor", Type: graphql.String},
		},
	}
}

// Type returns the connection type, XConnection.
func (c *Connection[P, T, K]) Type() *graphql.Object { return c.conn }

// EdgeType returns the edge type, XEdge.
func (c *Connection[P, T, K]) EdgeType() *graphql.Object { return c.edge }

// Field returns a field called name that returns the connection (non-null),
// with the arguments first, after, last, before and [Config].Args, its
// resolver and its cost. A Connection may serve several fields; the
// cursors of each are refused by the others.
func (c *Connection[P, T, K]) Field(name string) graphql.Field {
	args := []graphql.Argument{
		{Name: "first", Type: graphql.Int, Description: fmt.Sprintf("Return the first n nodes (after the after cursor); at most %d.", c.maxSize)},
		{Name: "after", Type: graphql.String, Description: "Return nodes after this cursor."},
		{Name: "last", Type: graphql.Int, Description: fmt.Sprintf("Return the last n nodes (before the before cursor); at most %d.", c.maxSize)},
		{Name: "before", Type: graphql.String, Description: "Return nodes before this cursor."},
	}
	args = append(args, c.cfg.Args...)
	return graphql.Field{
		Name:        name,
		Type:        graphql.NewNonNull(c.conn),
		Args:        args,
		Description: c.cfg.Description,
		Typed:       graphql.ResolverWithInfo(c.resolve),
		Cost:        graphql.Cost{SizeArg: "first", Size: c.maxSize, MaxSize: c.maxSize, NullSizeAsAbsent: true},
	}
}

// keyShape describes a key type for the cursors' binding: its name and,
// for a struct, its fields' names, types and tags, so that a cursor made
// while the key had other fields is refused rather than read with some of
// them zero.
func keyShape(t reflect.Type) string {
	var b strings.Builder
	b.WriteString(t.String())
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(&b, ";%s %s %q", f.Name, f.Type, f.Tag)
		}
	}
	return b.String()
}
