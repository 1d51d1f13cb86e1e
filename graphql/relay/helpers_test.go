package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// post is a node of the test connection, listed newest first.
type post struct {
	ID        int64
	Title     string
	CreatedAt time.Time
}

// postKey is a post's place in the list: created_at, then id, both
// descending.
type postKey struct {
	At time.Time `json:"at"`
	ID int64     `json:"id"`
}

func keyOf(p *post) postKey { return postKey{At: p.CreatedAt, ID: p.ID} }

// older reports whether a comes after b in the list (newest first).
func older(a, b postKey) bool {
	if !a.At.Equal(b.At) {
		return a.At.Before(b.At)
	}
	return a.ID < b.ID
}

// store is a keyset store over posts, counting its calls.
type store struct {
	posts  []*post // newest first
	loads  atomic.Int64
	counts atomic.Int64
}

// newStore returns n posts, several of them created at the same time so
// that the id breaks ties: post i (1..n) at base + i/2 minutes.
func newStore(n int) *store {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &store{}
	for i := 1; i <= n; i++ {
		s.posts = append(s.posts, &post{ID: int64(i), Title: fmt.Sprintf("Post %d", i), CreatedAt: base.Add(time.Duration(i/2) * time.Minute)})
	}
	slices.SortFunc(s.posts, func(a, b *post) int {
		if older(keyOf(a), keyOf(b)) {
			return 1
		}
		return -1
	})
	return s
}

// load reads a page by keyset, as a database would with
// WHERE (created_at, id) < after AND … ORDER BY … LIMIT.
func (s *store) load(_ context.Context, _ any, req relay.Request[postKey]) ([]*post, error) {
	s.loads.Add(1)
	items := slices.Clone(s.posts)
	if req.Backward {
		slices.Reverse(items)
	}
	var out []*post
	for _, p := range items {
		k := keyOf(p)
		if req.After != nil && !older(k, *req.After) || req.Before != nil && !older(*req.Before, k) {
			continue
		}
		if len(out) == req.Limit {
			break
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *store) count(context.Context, any, graphql.Args) (int, error) {
	s.counts.Add(1)
	return len(s.posts), nil
}

// newSchema returns a schema with Query.postsConnection and
// Query.latestPosts over s (one connection, two fields), and
// Query.usersConnection, another connection with the same key type.
func newSchema(t *testing.T, s *store) *graphql.Schema {
	t.Helper()
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
	}}
	userType := &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}}
	pageInfo := relay.NewPageInfo()
	posts, err := relay.New(postType, keyOf, s.load, relay.Config[any]{Count: s.count, PageInfo: pageInfo, MaxPageSize: 50, DefaultPageSize: 3})
	if err != nil {
		t.Fatalf("relay.New: %v", err)
	}
	users, err := relay.New(userType, keyOf, s.load, relay.Config[any]{Name: "User", PageInfo: pageInfo})
	if err != nil {
		t.Fatalf("relay.New: %v", err)
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		posts.Field("postsConnection"),
		posts.Field("latestPosts"),
		users.Field("usersConnection"),
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	return schema
}

// do runs query with vars and returns the response as JSON.
func do(t *testing.T, schema *graphql.Schema, query string, vars map[string]any) string {
	t.Helper()
	res := schema.Do(context.Background(), graphql.Request{Query: query, Variables: vars})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// connJSON is the answer of pageQuery.
type connJSON struct {
	Data struct {
		Conn struct {
			Edges []struct {
				Cursor string
				Node   struct{ ID string }
			}
			PageInfo struct {
				HasNextPage, HasPreviousPage bool
				StartCursor, EndCursor       *string
			}
		} `json:"postsConnection"`
	}
	Errors []json.RawMessage
}

const pageQuery = `query($first: Int, $after: String, $last: Int, $before: String) {
  postsConnection(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

// page runs pageQuery and decodes its answer, failing on errors.
func page(t *testing.T, schema *graphql.Schema, vars map[string]any) connJSON {
	t.Helper()
	body := do(t, schema, pageQuery, vars)
	var c connJSON
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	if len(c.Errors) > 0 {
		t.Fatalf("errors: %s", body)
	}
	return c
}

// ids returns the node ids of a page.
func (c connJSON) ids() []string {
	var out []string
	for _, e := range c.Data.Conn.Edges {
		out = append(out, e.Node.ID)
	}
	return out
}

// listIDs returns the ids of s's posts in list order.
func (s *store) listIDs() []string {
	var out []string
	for _, p := range s.posts {
		out = append(out, fmt.Sprint(p.ID))
	}
	return out
}
