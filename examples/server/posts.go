package main

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// The sample schema of the service:
//
//	type User { id: ID!  name: String! }
//	type Post { id: ID!  title: String!  body: String!  tags: [String!]  createdAt: String  author: User }
//	input CreatePostInput { title: String!  body: String!  tags: [String!] }
//	type Query { posts(first: Int = 10): [Post!]!  post(id: ID!): Post }
//	type Mutation { createPost(input: CreatePostInput!): Post!  deletePost(id: ID!): Post }

const (
	maxFirst      = 50
	maxTitleChars = 200
	maxTags       = 20
	maxTagChars   = 50
)

// postsSchema builds the sample schema over posts.
func postsSchema(posts *postStore) (*graphql.Schema, error) {
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
		// The author is read from Post.Author, which the resolver that
		// loaded the posts filled when the client selected it.
		{Name: "author", Type: user},
	}}
	createInput := &graphql.InputObject{Name: "CreatePostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String), Description: "1 to 200 characters."},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
	}}
	r := &postResolvers{posts: posts}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Description: "The newest posts, at most 50.",
			Args:        []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Cost:        graphql.Cost{SizeArg: "first"}, // each post's selection counts first times
			Resolve:     r.latest},
		{Name: "post", Type: post, Description: "One post, or null when there is none with this id.",
			Args:    []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Resolve: r.find},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "createPost", Type: graphql.NewNonNull(post), Description: "Writes a post as the authenticated user.",
			Args:    []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(createInput)}},
			Resolve: r.create},
		{Name: "deletePost", Type: post, Description: "Deletes one of your posts and returns it.",
			Args:    []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Resolve: r.delete},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
}

type postResolvers struct{ posts *postStore }

// withAuthors loads the authors of posts in one query, when the client
// selected them.
func (r *postResolvers) withAuthors(ctx context.Context, info graphql.ResolveInfo, posts ...*Post) error {
	if !info.IsSelected("author") {
		return nil
	}
	return r.posts.loadAuthors(ctx, posts)
}

func (r *postResolvers) latest(ctx context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
	first, err := args.Int("first")
	if err != nil {
		return nil, err
	}
	n := min(max(first, 0), maxFirst)
	if n == 0 {
		return []*Post{}, nil
	}
	posts, err := r.posts.latest(ctx, n)
	if err != nil {
		return nil, err
	}
	return posts, r.withAuthors(ctx, info, posts...)
}

// postID parses a post id; anything that is not a positive integer names
// no post.
func postID(raw string) (int64, bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	return id, err == nil && id > 0
}

func (r *postResolvers) find(ctx context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
	raw, _ := args.String("id")
	id, ok := postID(raw)
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
	return p, r.withAuthors(ctx, info, p)
}

func (r *postResolvers) create(ctx context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
	userID, ok := auth.UserID(ctx)
	if !ok { // the endpoint's mutation gate makes this unreachable
		return nil, apierror.Unauthenticated("")
	}
	input, _ := args.Input("input")
	in := input.Map()
	title := strings.TrimSpace(in["title"].(string))
	body := strings.TrimSpace(in["body"].(string))
	var tags []string
	if raw, ok := in["tags"].([]any); ok {
		tags = make([]string, len(raw))
		for i, t := range raw {
			tags[i] = strings.TrimSpace(t.(string))
		}
	}
	if fields := validatePost(title, body, tags); fields != nil {
		msg := apierror.Summarize(fields, []string{"input.title", "input.body", "input.tags"})
		return nil, apierror.ValidationFailed(msg, fields)
	}
	p, err := r.posts.create(ctx, userID, title, body, tags)
	if err != nil {
		return nil, err
	}
	return p, r.withAuthors(ctx, info, p)
}

// validatePost returns the messages of every rule the input breaks, keyed
// by the field's path in the mutation, or nil.
func validatePost(title, body string, tags []string) map[string][]string {
	fields := map[string][]string{}
	// PostgreSQL cannot store U+0000 in text and SQLite would: both
	// refuse it here, as the articles API does.
	switch n := utf8.RuneCountInString(title); {
	case n == 0:
		fields["input.title"] = []string{"The title field is required."}
	case n > maxTitleChars:
		fields["input.title"] = []string{"The title field must not be greater than 200 characters."}
	case strings.ContainsRune(title, 0):
		fields["input.title"] = []string{"The title field must not contain null characters."}
	}
	switch {
	case body == "":
		fields["input.body"] = []string{"The body field is required."}
	case strings.ContainsRune(body, 0):
		fields["input.body"] = []string{"The body field must not contain null characters."}
	}
	if len(tags) > maxTags {
		fields["input.tags"] = []string{"The tags field must not have more than 20 items."}
	}
	for i, t := range tags {
		key := "input.tags." + strconv.Itoa(i)
		if n := utf8.RuneCountInString(t); n == 0 || n > maxTagChars {
			fields[key] = []string{"Each tag must be 1 to 50 characters."}
		} else if strings.ContainsRune(t, 0) {
			fields[key] = []string{"Each tag must not contain null characters."}
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return fields
}

func (r *postResolvers) delete(ctx context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
	userID, ok := auth.UserID(ctx)
	if !ok {
		return nil, apierror.Unauthenticated("")
	}
	raw, _ := args.String("id")
	id, ok := postID(raw)
	if !ok {
		return nil, apierror.NotFound("Post not found.")
	}
	p, err := r.posts.deleteOwn(ctx, id, userID)
	if err != nil {
		return nil, err
	}
	return p, r.withAuthors(ctx, info, p)
}
