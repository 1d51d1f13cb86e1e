package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// TestPostsConnection pages postsConnection forward and backward over the
// 50 seeded posts on both databases, counting statements: one per page,
// one more for the authors when they are selected, one for totalCount only
// when it is selected.
func TestPostsConnection(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			ctx := context.Background()
			schema, counter, _, posts := seededSchema(t, kind.open(t).url)
			type pageJSON struct {
				PostsConnection struct {
					Edges []struct {
						Node struct {
							ID     string
							Author *struct{ Name string }
						}
					}
					PageInfo struct {
						HasNextPage, HasPreviousPage bool
						StartCursor, EndCursor       *string
					}
					TotalCount int
				}
			}
			run := func(query string, vars map[string]any, wantQueries int64) pageJSON {
				t.Helper()
				counter.n.Store(0)
				res := schema.Do(ctx, graphql.Request{Query: query, Variables: vars})
				if len(res.Errors) > 0 {
					t.Fatalf("%s %v: errors %v", query, vars, res.Errors)
				}
				if n := counter.n.Load(); n != wantQueries {
					t.Errorf("%s %v: %d statements, want %d", query, vars, n, wantQueries)
				}
				var p pageJSON
				if err := json.Unmarshal(res.Data, &p); err != nil {
					t.Fatal(err)
				}
				return p
			}
			want := make([]string, len(posts))
			for i, p := range posts {
				want[i] = p.id
			}

			const forward = `query($after: String) { postsConnection(first: 7, after: $after) { edges { node { id author { name } } } pageInfo { hasNextPage endCursor } } }`
			var got []string
			var after any
			for range 10 {
				p := run(forward, map[string]any{"after": after}, 2)
				for i, e := range p.PostsConnection.Edges {
					got = append(got, e.Node.ID)
					if e.Node.Author == nil || e.Node.Author.Name != posts[len(got)-1].author {
						t.Errorf("edge %d: author %v, want %s", i, e.Node.Author, posts[len(got)-1].author)
					}
				}
				if !p.PostsConnection.PageInfo.HasNextPage {
					break
				}
				after = *p.PostsConnection.PageInfo.EndCursor
			}
			if !slices.Equal(got, want) {
				t.Errorf("forward: %v, want %v", got, want)
			}

			const backward = `query($before: String) { postsConnection(last: 20, before: $before) { edges { node { id } } pageInfo { hasPreviousPage startCursor } } }`
			got = nil
			var before any
			for range 10 {
				p := run(backward, map[string]any{"before": before}, 1)
				var ids []string
				for _, e := range p.PostsConnection.Edges {
					ids = append(ids, e.Node.ID)
				}
				got = append(ids, got...)
				if !p.PostsConnection.PageInfo.HasPreviousPage {
					break
				}
				before = *p.PostsConnection.PageInfo.StartCursor
			}
			if !slices.Equal(got, want) {
				t.Errorf("backward: %v, want %v", got, want)
			}

			if p := run(`{ postsConnection { totalCount } }`, nil, 1); p.PostsConnection.TotalCount != 50 {
				t.Errorf("totalCount = %d, want 50", p.PostsConnection.TotalCount)
			}
			if p := run(`{ postsConnection(first: 3) { totalCount edges { node { id } } } }`, nil, 2); fmt.Sprint(len(p.PostsConnection.Edges), p.PostsConnection.TotalCount) != "3 50" {
				t.Errorf("first 3 with totalCount: %+v", p)
			}
			if p := run(`{ postsConnection(first: 100) { edges { node { id } } } }`, nil, 1); len(p.PostsConnection.Edges) != maxFirst {
				t.Errorf("first 100: %d edges, want %d", len(p.PostsConnection.Edges), maxFirst)
			}
		})
	}
}
