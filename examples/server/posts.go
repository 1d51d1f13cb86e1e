package main

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// The sample schema of the service:
//
//	type User { id: ID!  name: String! }
//	type Post { id: ID!  title: String!  body: String!  tags: [String!]  createdAt: String  author: User }
//	input CreatePostInput { title: String!  body: String!  tags: [String!] }
//	type Query {
//	  posts(first: Int = 10): [Post!]!
//	  postsConnection(first: Int, after: String, last: Int, before: String): PostConnection!
//	  post(id: ID!): Post
//	}
//	type PostConnection { edges: [PostEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
//	type PostEdge { cursor: String!  node: Post! }
//	type PageInfo { hasNextPage: Boolean!  hasPreviousPage: Boolean!  startCursor: String  endCursor: String }
//	type Mutation { createPost(input: CreatePostInput!): Post!  deletePost(id: ID!): Post }

const (
	maxFirst    = 50
	maxTags     = 20
	maxTagChars = 50
)

// The arguments of the sample schema's fields, decoded by the typed
// resolvers: NewSchema checks them against the schema.
type (
	postsArgs struct {
		First int // clamped to 0..50 by the resolver
	}
	postArgs struct {
		ID string // any text: one that is not a post id names no post
	}
	createPostArgs struct {
		Input createPostInput
	}
	createPostInput struct {
		Title string
		Body  string
		Tags  []string
	}
)

// postsSchema builds the sample schema over posts. The rules of a post's
// title and body are the articles API's (articles.TitleRules and
// BodyRules), run on the trimmed value (validate.Trimmed) as the REST API
// runs them behind its TrimStrings, so that both APIs refuse the same
// input with the same messages.
func postsSchema(posts *postStore) (*graphql.Schema, error) {
	r := &postResolvers{posts: posts}
	user := &graphql.Object{Name: "User", Description: "The author of posts.", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	post := &graphql.Object{Name: "Post", Description: "A post.", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "createdAt", Type: graphql.String, Description: "When the post was written, in UTC (RFC 3339)."},
		// The authors of every post of the answer come from one query:
		// a batch resolver, however many posts (or pages of edges).
		{Name: "author", Type: user, Batch: graphql.Batch(r.authors)},
	}}
	createInput := &graphql.InputObject{Name: "CreatePostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String), Description: "1 to 200 characters.",
			Rules: []validate.Rule{validate.Trimmed(articles.TitleRules()...)}},
		{Name: "body", Type: graphql.NewNonNull(graphql.String), Rules: []validate.Rule{validate.Trimmed(articles.BodyRules()...)}},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String)), Description: "At most 20, each 1 to 50 characters.",
			Rules: []validate.Rule{validate.Max(maxTags),
				validate.Each(validate.Trimmed(validate.Required(), validate.Max(maxTagChars), validate.NoNullCharacters()))}},
	}}
	conn, err := postsConnection(post, posts)
	if err != nil {
		return nil, err
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Description: "The newest posts, at most 50.",
			Args:        []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			// Each post's selection counts first times, never more than
			// the 50 posts the resolver returns at most.
			Cost:  graphql.Cost{SizeArg: "first", MaxSize: maxFirst},
			Typed: graphql.Resolver(r.latest)},
		conn.Field("postsConnection"),
		{Name: "post", Type: post, Description: "One post, or null when there is none with this id.",
			Args:  []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(r.find)},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "createPost", Type: graphql.NewNonNull(post), Description: "Writes a post as the authenticated user.",
			Args:  []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(createInput)}},
			Typed: graphql.Resolver(r.create)},
		{Name: "deletePost", Type: post, Description: "Deletes one of your posts and returns it.",
			Args:  []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(r.delete)},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
}

type postResolvers struct{ posts *postStore }

// authors is Post.author for every post of an answer at once: one query.
func (r *postResolvers) authors(ctx context.Context, posts []*Post, _ graphql.NoArgs) ([]*User, error) {
	if err := r.posts.loadAuthors(ctx, posts); err != nil {
		return nil, err
	}
	out := make([]*User, len(posts))
	for i, p := range posts {
		out[i] = p.Author
	}
	return out, nil
}

func (r *postResolvers) latest(ctx context.Context, _ any, args postsArgs) ([]*Post, error) {
	n := min(max(args.First, 0), maxFirst)
	if n == 0 {
		return []*Post{}, nil
	}
	posts, err := r.posts.latest(ctx, n)
	if err != nil {
		return nil, err
	}
	return posts, nil
}

// postID parses a post id; anything that is not a positive integer names
// no post.
func postID(raw string) (int64, bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	return id, err == nil && id > 0
}

func (r *postResolvers) find(ctx context.Context, _ any, args postArgs) (*Post, error) {
	id, ok := postID(args.ID)
	if !ok {
		return nil, nil
	}
	p, err := r.posts.find(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// create writes a post. The input's rules have run on the trimmed values
// when it is called, and those are what it stores.
func (r *postResolvers) create(ctx context.Context, _ any, args createPostArgs) (*Post, error) {
	userID, ok := auth.UserID(ctx)
	if !ok { // the endpoint's mutation gate makes this unreachable
		return nil, errcode.Unauthenticated("")
	}
	in := args.Input
	for i, t := range in.Tags {
		in.Tags[i] = validate.Trim(t) // the slice is this call's own
	}
	p, err := r.posts.create(ctx, userID, validate.Trim(in.Title), validate.Trim(in.Body), in.Tags)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (r *postResolvers) delete(ctx context.Context, _ any, args postArgs) (*Post, error) {
	userID, ok := auth.UserID(ctx)
	if !ok {
		return nil, errcode.Unauthenticated("")
	}
	id, ok := postID(args.ID)
	if !ok {
		return nil, errcode.NotFound("Post not found.")
	}
	p, err := r.posts.deleteOwn(ctx, id, userID)
	if err != nil {
		return nil, err
	}
	return p, nil
}
