package relay_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// TestForward pages through the whole list with first/after, for several
// page sizes, and checks each page's edges and pageInfo.
func TestForward(t *testing.T) {
	s := newStore(11)
	schema := newSchema(t, s)
	want := s.listIDs()
	for _, size := range []int{1, 2, 3, 5, 11, 12, 50} {
		var got []string
		vars := map[string]any{"first": size}
		for n := 0; ; n++ {
			c := page(t, schema, vars)
			ids := c.ids()
			got = append(got, ids...)
			pi := c.Data.Conn.PageInfo
			wantNext := len(got) < len(want)
			if pi.HasNextPage != wantNext || pi.HasPreviousPage {
				t.Fatalf("first %d, page %d: hasNextPage %v hasPreviousPage %v, want %v false", size, n, pi.HasNextPage, pi.HasPreviousPage, wantNext)
			}
			if len(ids) == 0 {
				t.Fatalf("first %d, page %d: empty page", size, n)
			}
			edges := c.Data.Conn.Edges
			if *pi.StartCursor != edges[0].Cursor || *pi.EndCursor != edges[len(edges)-1].Cursor {
				t.Fatalf("first %d, page %d: startCursor/endCursor %q %q, want the first and last edges' cursors", size, n, *pi.StartCursor, *pi.EndCursor)
			}
			if !pi.HasNextPage {
				break
			}
			vars = map[string]any{"first": size, "after": *pi.EndCursor}
		}
		if !slices.Equal(got, want) {
			t.Errorf("first %d: paged %v, want %v", size, got, want)
		}
	}
}

// TestBackward pages from the end with last/before.
func TestBackward(t *testing.T) {
	s := newStore(11)
	schema := newSchema(t, s)
	want := s.listIDs()
	for _, size := range []int{1, 3, 4, 11, 20} {
		var got []string
		vars := map[string]any{"last": size, "first": nil} // Relay sends first: null
		for n := 0; ; n++ {
			c := page(t, schema, vars)
			got = append(c.ids(), got...)
			pi := c.Data.Conn.PageInfo
			wantPrev := len(got) < len(want)
			if pi.HasPreviousPage != wantPrev || pi.HasNextPage {
				t.Fatalf("last %d, page %d: hasPreviousPage %v hasNextPage %v, want %v false", size, n, pi.HasPreviousPage, pi.HasNextPage, wantPrev)
			}
			if !pi.HasPreviousPage {
				break
			}
			vars = map[string]any{"last": size, "before": *pi.StartCursor}
		}
		if !slices.Equal(got, want) {
			t.Errorf("last %d: paged %v, want %v", size, got, want)
		}
	}
}

// TestWindows checks pages between two cursors and the boundaries.
func TestWindows(t *testing.T) {
	s := newStore(6)
	schema := newSchema(t, s)
	all := page(t, schema, map[string]any{"first": 6})
	cur := func(i int) string { return all.Data.Conn.Edges[i].Cursor }
	ids := s.listIDs()
	cases := []struct {
		name     string
		vars     map[string]any
		want     []string
		next     bool
		previous bool
	}{
		{name: "default size", vars: nil, want: ids[:3], next: true},
		{name: "first 0", vars: map[string]any{"first": 0}, want: nil, next: true},
		{name: "first 0 after the end", vars: map[string]any{"first": 0, "after": cur(5)}, want: nil},
		{name: "last 0", vars: map[string]any{"last": 0}, want: nil, previous: true},
		{name: "after the last", vars: map[string]any{"first": 2, "after": cur(5)}, want: nil},
		{name: "before the first", vars: map[string]any{"last": 2, "before": cur(0)}, want: nil},
		{name: "after the next to last", vars: map[string]any{"first": 2, "after": cur(4)}, want: ids[5:]},
		{name: "exactly the rest", vars: map[string]any{"first": 3, "after": cur(2)}, want: ids[3:]},
		{name: "between", vars: map[string]any{"after": cur(0), "before": cur(5)}, want: ids[1:4], next: true},
		{name: "between, all", vars: map[string]any{"first": 10, "after": cur(0), "before": cur(5)}, want: ids[1:5]},
		{name: "between, last", vars: map[string]any{"last": 2, "after": cur(0), "before": cur(5)}, want: ids[3:5], previous: true},
		{name: "before, forward", vars: map[string]any{"first": 2, "before": cur(3)}, want: ids[:2], next: true},
		{name: "after, backward", vars: map[string]any{"last": 2, "after": cur(1)}, want: ids[4:], previous: true},
		{name: "crossed cursors", vars: map[string]any{"first": 2, "after": cur(4), "before": cur(1)}, want: nil},
		{name: "null cursors", vars: map[string]any{"first": 1, "after": nil, "before": nil, "last": nil}, want: ids[:1], next: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := page(t, schema, tc.vars)
			pi := c.Data.Conn.PageInfo
			if got := c.ids(); !slices.Equal(got, tc.want) {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
			if pi.HasNextPage != tc.next || pi.HasPreviousPage != tc.previous {
				t.Errorf("hasNextPage %v hasPreviousPage %v, want %v %v", pi.HasNextPage, pi.HasPreviousPage, tc.next, tc.previous)
			}
			if len(tc.want) == 0 && (pi.StartCursor != nil || pi.EndCursor != nil) {
				t.Errorf("empty page: startCursor %v endCursor %v, want null", pi.StartCursor, pi.EndCursor)
			}
		})
	}
}

// TestEmptyList pages an empty list.
func TestEmptyList(t *testing.T) {
	schema := newSchema(t, newStore(0))
	got := do(t, schema, `{ postsConnection(first: 5) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`, nil)
	want := `{"data":{"postsConnection":{"edges":[],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":null,"endCursor":null},"totalCount":0}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestRefusals checks every refused argument: one BAD_USER_INPUT error
// at the field's path, the field null (and so data, as it is non-null),
// and nothing loaded.
func TestRefusals(t *testing.T) {
	s := newStore(5)
	schema := newSchema(t, s)
	first := page(t, schema, map[string]any{"first": 2}).Data.Conn.Edges[0].Cursor
	latest := func() string {
		body := do(t, schema, `{ latestPosts(first: 1) { edges { cursor } } }`, nil)
		return body[strings.Index(body, `"cursor":"`)+10 : strings.LastIndex(body, `"}]`)]
	}()
	users := func() string {
		body := do(t, schema, `{ usersConnection(first: 1) { edges { cursor } } }`, nil)
		return body[strings.Index(body, `"cursor":"`)+10 : strings.LastIndex(body, `"}]`)]
	}()
	tampered := []byte(first)
	tampered[len(tampered)/2] ^= 1
	s.loads.Store(0)
	errBody := func(msg string) string {
		return `{"data":null,"errors":[{"message":"` + msg + `","locations":[{"line":2,"column":3}],"path":["postsConnection"],"extensions":{"code":"BAD_USER_INPUT"}}]}`
	}
	cases := []struct {
		name string
		vars map[string]any
		want string
	}{
		{"negative first", map[string]any{"first": -1}, errBody(`Argument \"first\" must not be negative.`)},
		{"negative last", map[string]any{"last": -5}, errBody(`Argument \"last\" must not be negative.`)},
		{"first and last", map[string]any{"first": 1, "last": 1}, errBody(`Arguments \"first\" and \"last\" must not be given together.`)},
		{"first 0 and last 0", map[string]any{"first": 0, "last": 0}, errBody(`Arguments \"first\" and \"last\" must not be given together.`)},
		{"tampered after", map[string]any{"first": 1, "after": string(tampered)}, errBody(`Argument \"after\" is not a cursor of this connection.`)},
		{"tampered before", map[string]any{"last": 1, "before": string(tampered)}, errBody(`Argument \"before\" is not a cursor of this connection.`)},
		{"garbage", map[string]any{"after": "bm90IGEgY3Vyc29y"}, errBody(`Argument \"after\" is not a cursor of this connection.`)},
		{"empty", map[string]any{"after": ""}, errBody(`Argument \"after\" is not a cursor of this connection.`)},
		{"from another field", map[string]any{"after": latest}, errBody(`Argument \"after\" is not a cursor of this connection.`)},
		{"from another connection", map[string]any{"before": users}, errBody(`Argument \"before\" is not a cursor of this connection.`)},
		{"huge", map[string]any{"after": strings.Repeat("A", 5000)}, errBody(`Argument \"after\" is not a cursor of this connection.`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := do(t, schema, pageQuery, tc.vars); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if n := s.loads.Load(); n != 0 {
		t.Errorf("refused requests loaded %d pages, want 0", n)
	}
}

// TestTotalCount checks that Count runs only when totalCount is selected,
// and the page is loaded only when edges or pageInfo is.
func TestTotalCount(t *testing.T) {
	s := newStore(7)
	schema := newSchema(t, s)
	cases := []struct {
		query         string
		want          string
		loads, counts int64
	}{
		{`{ postsConnection(first: 1) { edges { node { id } } } }`, `{"data":{"postsConnection":{"edges":[{"node":{"id":"7"}}]}}}`, 1, 0},
		{`{ postsConnection { totalCount } }`, `{"data":{"postsConnection":{"totalCount":7}}}`, 0, 1},
		{`{ postsConnection(first: 1) { pageInfo { hasNextPage } totalCount } }`, `{"data":{"postsConnection":{"pageInfo":{"hasNextPage":true},"totalCount":7}}}`, 1, 1},
		{`query($no: Boolean!) { postsConnection(first: 1) { pageInfo { hasNextPage } totalCount @include(if: $no) } }`, `{"data":{"postsConnection":{"pageInfo":{"hasNextPage":true}}}}`, 1, 0},
		{`{ postsConnection { ... on PostConnection { n: totalCount } } }`, `{"data":{"postsConnection":{"n":7}}}`, 0, 1},
		{`{ postsConnection { __typename } }`, `{"data":{"postsConnection":{"__typename":"PostConnection"}}}`, 0, 0},
	}
	for _, tc := range cases {
		s.loads.Store(0)
		s.counts.Store(0)
		if got := do(t, schema, tc.query, map[string]any{"no": false}); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.query, got, tc.want)
		}
		if l, c := s.loads.Load(), s.counts.Load(); l != tc.loads || c != tc.counts {
			t.Errorf("%s: %d loads and %d counts, want %d and %d", tc.query, l, c, tc.loads, tc.counts)
		}
	}
}

// TestClamp checks that first and last past MaxPageSize are clamped.
func TestClamp(t *testing.T) {
	s := newStore(60)
	schema := newSchema(t, s)
	for _, vars := range []map[string]any{{"first": 2147483647}, {"last": 51}} {
		c := page(t, schema, vars)
		if n := len(c.ids()); n != 50 {
			t.Errorf("%v: %d edges, want 50", vars, n)
		}
	}
}

// TestNew checks New's refusals, all reported at once.
func TestNew(t *testing.T) {
	load := func(context.Context, any, relay.Request[postKey]) ([]*post, error) { return nil, nil }
	node := &graphql.Object{Name: "Post", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	_, err := relay.New[any, *post, postKey](nil, nil, nil, relay.Config[any]{DefaultPageSize: -1})
	want := "relay: the node type is nil\nrelay: the key function is nil\nrelay: the load function is nil\n" +
		"relay: DefaultPageSize -1 and MaxPageSize 0 must not be negative (0 means the defaults, 10 and 50)"
	if err == nil || err.Error() != want {
		t.Errorf("New error = %v, want %s", err, want)
	}
	_, err = relay.New(node, keyOf, load, relay.Config[any]{DefaultPageSize: 60, Args: []graphql.Argument{{Name: "after", Type: graphql.String}}})
	want = "relay: DefaultPageSize 60 is larger than MaxPageSize 50\nrelay: Config.Args: \"after\" is an argument of every connection"
	if err == nil || err.Error() != want {
		t.Errorf("New error = %v, want %s", err, want)
	}
}

// TestKeyChange checks that a cursor made while the key type had other
// fields is refused by the connection with the new key type.
func TestKeyChange(t *testing.T) {
	s := newStore(3)
	old := newSchema(t, s)
	cursor := page(t, old, map[string]any{"first": 1}).Data.Conn.Edges[0].Cursor

	type widerKey struct {
		At    time.Time `json:"at"`
		ID    int64     `json:"id"`
		Score int       `json:"score"`
	}
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}}
	loads := 0
	conn, err := relay.New(postType, func(p *post) widerKey { return widerKey{At: p.CreatedAt, ID: p.ID} },
		func(context.Context, any, relay.Request[widerKey]) ([]*post, error) { loads++; return nil, nil }, relay.Config[any]{})
	if err != nil {
		t.Fatal(err)
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{conn.Field("postsConnection")}}})
	if err != nil {
		t.Fatal(err)
	}
	got := do(t, schema, `query($c: String) { postsConnection(after: $c) { edges { cursor } } }`, map[string]any{"c": cursor})
	want := `{"data":null,"errors":[{"message":"Argument \"after\" is not a cursor of this connection.","locations":[{"line":1,"column":21}],"path":["postsConnection"],"extensions":{"code":"BAD_USER_INPUT"}}]}`
	if got != want || loads != 0 {
		t.Errorf("got  %s (%d loads)\nwant %s", got, loads, want)
	}
}
