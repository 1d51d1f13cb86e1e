package main

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// postKey is a post's place in the list of postsConnection, newest first:
// its created_at, then its id.
type postKey struct {
	CreatedAt time.Time `json:"t"`
	ID        int64     `json:"id"`
}

// postsConnection is Query.postsConnection: the posts, newest first, as
// a Relay connection read by keyset over the posts' created_at index; the
// authors of a page's nodes are one query (Post.author is batched).
func postsConnection(post *graphql.Object, posts *postStore) (*relay.Connection[any, *Post, postKey], error) {
	key := func(p *Post) postKey { return postKey{CreatedAt: p.created, ID: p.ID} }
	load := func(ctx context.Context, _ any, req relay.Request[postKey]) ([]*Post, error) {
		return posts.page(ctx, req) // Post.author, a batch resolver, loads the page's authors in one query
	}
	return relay.New(post, key, load, relay.Config[any]{
		Description: "The posts, newest first, a page at a time.",
		MaxPageSize: maxFirst,
		Count: func(ctx context.Context, _ any, _ graphql.Args) (int, error) {
			return posts.count(ctx)
		},
	})
}

// page reads one page of postsConnection: the posts past req.After and
// before req.Before, newest first (oldest first when req.Backward), at
// most req.Limit of them, with no OFFSET.
func (s *postStore) page(ctx context.Context, req relay.Request[postKey]) ([]*Post, error) {
	var where []string
	var args []any
	param := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if k := req.After; k != nil {
		at, id := param(s.timestamp(k.CreatedAt)), param(k.ID)
		where = append(where, "created_at <= "+at+" AND (created_at < "+at+" OR id < "+id+")")
	}
	if k := req.Before; k != nil {
		at, id := param(s.timestamp(k.CreatedAt)), param(k.ID)
		where = append(where, "created_at >= "+at+" AND (created_at > "+at+" OR id > "+id+")")
	}
	query := "SELECT " + postColumns + " FROM posts"
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	if req.Backward {
		query += " ORDER BY created_at ASC, id ASC"
	} else {
		query += " ORDER BY created_at DESC, id DESC"
	}
	query += " LIMIT " + param(req.Limit)
	rows, err := s.r(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return scanPosts(rows, req.Limit)
}

// count returns the number of posts.
func (s *postStore) count(ctx context.Context) (int, error) {
	var n int
	err := s.r(ctx).QueryRowContext(ctx, "SELECT count(*) FROM posts").Scan(&n)
	return n, err
}
