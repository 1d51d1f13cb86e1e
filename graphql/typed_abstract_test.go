package graphql_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

type nodeGo interface{ nodeID() string }

type bookGo struct {
	ID      string
	Related *authorGo
}

type authorGo struct{ ID, Name string }

type entityGo struct{ ID string }

type strangerGo struct{ ID string }

func (b *bookGo) nodeID() string { return b.ID }

// typedCatalog returns a schema whose Query has typed resolvers: book
// returns *bookGo, author *authorGo, and node returns what nodeResult
// makes of them; Book.related is read from bookGo.Related.
func typedCatalog(node graphql.TypedResolver, change func(n *graphql.Interface, book, author *graphql.Object)) graphql.SchemaConfig {
	idNN := graphql.NewNonNull(graphql.ID)
	n := iface("Node", nil, graphql.Field{Name: "id", Type: idNN})
	author := object("Author", ifaces(n), graphql.Field{Name: "id", Type: idNN}, graphql.Field{Name: "name", Type: graphql.String})
	book := object("Book", ifaces(n), graphql.Field{Name: "id", Type: idNN}, graphql.Field{Name: "related", Type: n})
	if change != nil {
		change(n, book, author)
	}
	q := queryWith(
		graphql.Field{Name: "book", Type: book, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*bookGo, error) { return nil, nil })},
		graphql.Field{Name: "author", Type: author, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*authorGo, error) { return nil, nil })},
		graphql.Field{Name: "node", Type: n, Typed: node},
	)
	return graphql.SchemaConfig{Query: q}
}

func TestTypedAbstractAccepted(t *testing.T) {
	for name, node := range map[string]graphql.TypedResolver{
		"a Go interface": graphql.Resolver(func(context.Context, any, graphql.NoArgs) (nodeGo, error) { return nil, nil }),
		"any":            graphql.Resolver(func(context.Context, any, graphql.NoArgs) (any, error) { return nil, nil }),
		"a map":          graphql.Resolver(func(context.Context, any, graphql.NoArgs) (map[string]any, error) { return nil, nil }),
		"a learnt type":  graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*bookGo, error) { return nil, nil }),
		"its struct":     graphql.Resolver(func(context.Context, any, graphql.NoArgs) (authorGo, error) { return authorGo{}, nil }),
		"a list of them": graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*bookGo, error) { return nil, nil }),
	} {
		t.Run(name, func(t *testing.T) {
			cfg := typedCatalog(node, nil)
			if name == "a list of them" {
				cfg.Query = queryWith(graphql.Field{Name: "nodes", Type: graphql.NewList(cfg.Query.Fields.(graphql.Fields)[2].Type), Typed: node},
					cfg.Query.Fields.(graphql.Fields)[0], cfg.Query.Fields.(graphql.Fields)[1])
			}
			s := newSchema(t, cfg)
			for goType, want := range map[reflect.Type]string{
				reflect.TypeFor[*bookGo](): "Book", reflect.TypeFor[bookGo](): "Book",
				reflect.TypeFor[*authorGo](): "Author", reflect.TypeFor[authorGo](): "Author",
				reflect.TypeFor[*entityGo](): "", reflect.TypeFor[map[string]any](): "",
			} {
				if got := s.ObjectOfGoType("Node", goType); got != want {
					t.Errorf("object of %v = %q, want %q", goType, got, want)
				}
			}
		})
	}
}

func TestTypedAbstractRefused(t *testing.T) {
	stranger := graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*strangerGo, error) { return nil, nil })
	tests := []struct {
		name   string
		node   graphql.TypedResolver
		change func(n *graphql.Interface, book, author *graphql.Object)
		want   []string
	}{
		{name: "a type no object has", node: stranger,
			want: []string{"graphql: Query.node: the resolver returns *graphql_test.strangerGo, which cannot be matched to an object of Node: NewSchema learnt it for none of its possible objects (Book, Author), and Node has no ResolveType nor its objects an IsTypeOf"}},
		{name: "not a struct", node: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]int, error) { return nil, nil }),
			want: []string{"graphql: Query.node: the resolver returns []int, which does not fit Node (Node is []int; an interface needs a Go interface, a struct, a pointer to one or a map)"}},
		{name: "a field read as a scalar", node: stranger, change: func(n *graphql.Interface, book, _ *graphql.Object) {
			n.ResolveType = func(context.Context, any) (string, error) { return "Book", nil }
			book.Fields = append(book.Fields.(graphql.Fields), graphql.Field{Name: "ID", Type: n})
		}, want: []string{"graphql: Book.ID: field ID of *graphql_test.bookGo, which does not fit Node (Node is string; an interface needs a Go interface, a struct, a pointer to one or a map)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorLines(t, typedCatalog(tt.node, tt.change))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}

// A Go type that no rule of its own matches is accepted when ResolveType
// or an IsTypeOf can name its object.
func TestTypedAbstractResolvedOtherwise(t *testing.T) {
	stranger := graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*strangerGo, error) { return nil, nil })
	for name, change := range map[string]func(n *graphql.Interface, book, author *graphql.Object){
		"ResolveType": func(n *graphql.Interface, _, _ *graphql.Object) {
			n.ResolveType = func(context.Context, any) (string, error) { return "Book", nil }
		},
		"IsTypeOf": func(_ *graphql.Interface, _, author *graphql.Object) {
			author.IsTypeOf = func(v any) bool { _, ok := v.(*strangerGo); return ok }
		},
	} {
		t.Run(name, func(t *testing.T) { newSchema(t, typedCatalog(stranger, change)) })
	}
}

// A Go type learnt for two possible objects stands for neither.
func TestTypedAbstractAmbiguous(t *testing.T) {
	idNN := graphql.NewNonNull(graphql.ID)
	n := iface("Node", nil, graphql.Field{Name: "id", Type: idNN})
	a := object("A", ifaces(n), graphql.Field{Name: "id", Type: idNN})
	b := object("B", ifaces(n), graphql.Field{Name: "id", Type: idNN})
	entity := graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*entityGo, error) { return nil, nil })
	u := &graphql.Union{Name: "U", Types: []*graphql.Object{a}}
	cfg := graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: a, Typed: entity},
		graphql.Field{Name: "b", Type: b, Typed: entity},
		graphql.Field{Name: "u", Type: u, Typed: entity},
	)}
	s := newSchema(t, cfg)
	if got := s.ObjectOfGoType("Node", reflect.TypeFor[*entityGo]()); got != "ambiguous" {
		t.Errorf("*entityGo for Node = %q, want ambiguous", got)
	}
	// U has only A among its possible objects.
	if got := s.ObjectOfGoType("U", reflect.TypeFor[*entityGo]()); got != "A" {
		t.Errorf("*entityGo for U = %q, want A", got)
	}
	cfg.Query = queryWith(append(cfg.Query.Fields.(graphql.Fields), graphql.Field{Name: "node", Type: n, Typed: entity})...)
	got := errorLines(t, cfg)
	want := "graphql: Query.node: the resolver returns *graphql_test.entityGo, which cannot be matched to an object of Node: it is the Go type of A and B, and Node has no ResolveType nor its objects an IsTypeOf"
	if strings.Join(got, "\n") != want {
		t.Errorf("errors:\n got %s\nwant %s", strings.Join(got, "\n     "), want)
	}
}

// A batch resolver's results are checked as a typed resolver's.
func TestBatchAbstract(t *testing.T) {
	idNN := graphql.NewNonNull(graphql.ID)
	n := iface("Node", nil, graphql.Field{Name: "id", Type: idNN})
	book := object("Book", ifaces(n), graphql.Field{Name: "id", Type: idNN})
	u := &graphql.Union{Name: "U", Types: []*graphql.Object{book}}
	book.Fields = append(book.Fields.(graphql.Fields),
		graphql.Field{Name: "related", Type: graphql.NewList(n), Batch: graphql.Batch(func(context.Context, []*bookGo, graphql.NoArgs) ([][]nodeGo, error) { return nil, nil })},
		graphql.Field{Name: "other", Type: u, Batch: graphql.Batch(func(context.Context, []*bookGo, graphql.NoArgs) ([]*strangerGo, error) { return nil, nil })})
	cfg := graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "book", Type: book,
		Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*bookGo, error) { return nil, nil })})}
	got := errorLines(t, cfg)
	want := "graphql: Book.other: the resolver returns *graphql_test.strangerGo, which cannot be matched to an object of U: NewSchema learnt it for none of its possible objects (Book), and U has no ResolveType nor its objects an IsTypeOf"
	if strings.Join(got, "\n") != want {
		t.Errorf("errors:\n got %s\nwant %s", strings.Join(got, "\n     "), want)
	}
}
