package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// countingQuerier counts the statements a postStore sends to the database.
type countingQuerier struct {
	querier
	n atomic.Int64
}

func (q *countingQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q.n.Add(1)
	return q.querier.QueryContext(ctx, query, args...)
}

func (q *countingQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	q.n.Add(1)
	return q.querier.QueryRowContext(ctx, query, args...)
}

func (q *countingQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q.n.Add(1)
	return q.querier.ExecContext(ctx, query, args...)
}

// seededPost is a post written by seedPosts, with what the schema shows of it.
type seededPost struct {
	id, title, author string
}

// seedPosts migrates db and writes 50 posts by 5 authors: "Post k" by
// "Author ((k-1)%5)+1", each a second newer than the one before. It
// returns the user ids and the posts, newest first.
func seedPosts(t *testing.T, db *database) (userIDs []int64, newestFirst []seededPost) {
	t.Helper()
	ctx := context.Background()
	if err := db.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		id, err := db.store.CreateUser(ctx, fmt.Sprintf("Author %d", i), fmt.Sprintf("author%d@example.com", i), []byte("no password"))
		if err != nil {
			t.Fatal(err)
		}
		userIDs = append(userIDs, id)
	}
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	writer := &postStore{db: db.posts.db, dialect: db.posts.dialect, now: func() time.Time { return clock }}
	for k := 1; k <= 50; k++ {
		clock = clock.Add(time.Second)
		author := (k - 1) % 5
		p, err := writer.create(ctx, userIDs[author], fmt.Sprintf("Post %d", k), "Body", nil)
		if err != nil {
			t.Fatal(err)
		}
		newestFirst = append([]seededPost{{id: fmt.Sprint(p.ID), title: p.Title, author: fmt.Sprintf("Author %d", author+1)}}, newestFirst...)
	}
	return userIDs, newestFirst
}

// seededSchema opens the database at url, seeds it with seedPosts and
// returns the posts schema over a store whose statements counter counts.
func seededSchema(t *testing.T, url string) (schema *graphql.Schema, counter *countingQuerier, userIDs []int64, newestFirst []seededPost) {
	t.Helper()
	db, err := openDatabase(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	userIDs, newestFirst = seedPosts(t, db)
	counter = &countingQuerier{querier: db.posts.db}
	schema, err = postsSchema(&postStore{db: counter, dialect: db.posts.dialect, now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	return schema, counter, userIDs, newestFirst
}

// TestQueryCount checks that the posts schema loads authors with one query
// for the whole list, and none when they are not selected.
func TestQueryCount(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			ctx := context.Background()
			schema, counter, userIDs, posts := seededSchema(t, kind.open(t).url)

			list := func(n int, withAuthor bool) string {
				var items []string
				for _, p := range posts[:n] {
					if withAuthor {
						items = append(items, fmt.Sprintf(`{"id":%q,"title":%q,"author":{"name":%q}}`, p.id, p.title, p.author))
					} else {
						items = append(items, fmt.Sprintf(`{"id":%q,"title":%q}`, p.id, p.title))
					}
				}
				return `{"posts":[` + strings.Join(items, ",") + `]}`
			}
			newest := posts[0]
			asAuthor1 := auth.WithUserID(ctx, userIDs[0])
			tests := []struct {
				name        string
				ctx         context.Context
				query       string
				wantData    string // "" for data left unchecked (writes)
				wantQueries int64
			}{
				{name: "1 post with author", query: `{ posts(first: 1) { id title author { name } } }`, wantData: list(1, true), wantQueries: 2},
				{name: "10 posts with author", query: `{ posts(first: 10) { id title author { name } } }`, wantData: list(10, true), wantQueries: 2},
				{name: "50 posts with author", query: `{ posts(first: 50) { id title author { name } } }`, wantData: list(50, true), wantQueries: 2},
				{name: "first clamped to 50", query: `{ posts(first: 100) { id title author { name } } }`, wantData: list(50, true), wantQueries: 2},
				{name: "default first", query: `{ posts { id title author { name } } }`, wantData: list(10, true), wantQueries: 2},
				{name: "author in a fragment", query: `{ posts(first: 10) { id title ...A } } fragment A on Post { author { name } }`, wantData: list(10, true), wantQueries: 2},
				{name: "author skipped", query: `{ posts(first: 10) { id title author @skip(if: true) { name } } }`, wantData: list(10, false), wantQueries: 1},
				{name: "1 post without author", query: `{ posts(first: 1) { id title } }`, wantData: list(1, false), wantQueries: 1},
				{name: "10 posts without author", query: `{ posts(first: 10) { id title } }`, wantData: list(10, false), wantQueries: 1},
				{name: "50 posts without author", query: `{ posts(first: 50) { id title } }`, wantData: list(50, false), wantQueries: 1},
				{name: "no posts asked", query: `{ posts(first: 0) { id title author { name } } }`, wantData: `{"posts":[]}`, wantQueries: 0},
				{name: "negative first", query: `{ posts(first: -1) { id title author { name } } }`, wantData: `{"posts":[]}`, wantQueries: 0},
				{
					name:        "post with author",
					query:       fmt.Sprintf(`{ post(id: %q) { id title author { name } } }`, newest.id),
					wantData:    fmt.Sprintf(`{"post":{"id":%q,"title":%q,"author":{"name":%q}}}`, newest.id, newest.title, newest.author),
					wantQueries: 2,
				},
				{
					name:        "post without author",
					query:       fmt.Sprintf(`{ post(id: %q) { id title } }`, newest.id),
					wantData:    fmt.Sprintf(`{"post":{"id":%q,"title":%q}}`, newest.id, newest.title),
					wantQueries: 1,
				},
				{name: "missing post", query: `{ post(id: "999999") { id author { name } } }`, wantData: `{"post":null}`, wantQueries: 1},
				{name: "post id that is no number", query: `{ post(id: "abc") { id author { name } } }`, wantData: `{"post":null}`, wantQueries: 0},
				{
					name:        "create with author",
					ctx:         asAuthor1,
					query:       `mutation { createPost(input: {title: "New", body: "Body"}) { title author { name } } }`,
					wantData:    `{"createPost":{"title":"New","author":{"name":"Author 1"}}}`,
					wantQueries: 2,
				},
				{
					name:        "create without author",
					ctx:         asAuthor1,
					query:       `mutation { createPost(input: {title: "New", body: "Body"}) { title } }`,
					wantData:    `{"createPost":{"title":"New"}}`,
					wantQueries: 1,
				},
				{
					name:        "delete own with author",
					ctx:         asAuthor1,
					query:       fmt.Sprintf(`mutation { deletePost(id: %q) { id author { name } } }`, posts[len(posts)-1].id),
					wantData:    fmt.Sprintf(`{"deletePost":{"id":%q,"author":{"name":"Author 1"}}}`, posts[len(posts)-1].id),
					wantQueries: 2,
				},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					ctx := tt.ctx
					if ctx == nil {
						ctx = context.Background()
					}
					counter.n.Store(0)
					res := schema.Do(ctx, graphql.Request{Query: tt.query, Present: graphql.Unmasked})
					if len(res.Errors) > 0 {
						t.Fatalf("errors: %v", res.Errors)
					}
					if got := string(res.Data); got != tt.wantData {
						t.Errorf("data:\n got %s\nwant %s", got, tt.wantData)
					}
					if got := counter.n.Load(); got != tt.wantQueries {
						t.Errorf("queries: got %d, want %d", got, tt.wantQueries)
					}
				})
			}
		})
	}
}

// TestCreatePostRules runs createPost's input rules through the schema:
// every failure in one VALIDATION_FAILED, keyed by path, with Laravel's
// messages, and nothing written; valid input is stored trimmed.
func TestCreatePostRules(t *testing.T) {
	ctx := context.Background()
	db, err := openDatabase(ctx, sqliteDatabase(t).url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	userIDs, _ := seedPosts(t, db)
	schema, err := postsSchema(db.posts)
	if err != nil {
		t.Fatal(err)
	}
	asUser := auth.WithUserID(ctx, userIDs[0])
	tests := []struct {
		name  string
		input string
		want  map[string][]string // nil: valid
	}{
		{name: "valid", input: `{title: "Title", body: "Body"}`},
		{name: "valid with tags", input: `{title: " Title ", body: "Body", tags: ["go", "` + strings.Repeat("t", 50) + `"]}`},
		{name: "200 characters of two bytes each", input: `{title: "` + strings.Repeat("é", 200) + `", body: "Body"}`},
		{name: "empty title", input: `{title: "", body: "Body"}`,
			want: map[string][]string{"input.title": {"The title field is required."}}},
		{name: "a title of white space", input: `{title: " \t ", body: "Body"}`,
			want: map[string][]string{"input.title": {"The title field is required."}}},
		{name: "201 characters", input: `{title: "` + strings.Repeat("é", 201) + `", body: "Body"}`,
			want: map[string][]string{"input.title": {"The title field must not be greater than 200 characters."}}},
		{name: "empty body", input: `{title: "Title", body: ""}`,
			want: map[string][]string{"input.body": {"The body field is required."}}},
		{name: "21 tags", input: `{title: "Title", body: "Body", tags: [` + strings.Repeat(`"t", `, 20) + `"t"]}`,
			want: map[string][]string{"input.tags": {"The tags field must not have more than 20 items."}}},
		{name: "empty and long tags", input: `{title: "Title", body: "Body", tags: ["ok", " ", "` + strings.Repeat("t", 51) + `"]}`,
			want: map[string][]string{
				"input.tags.1": {"The tags.1 field is required."},
				"input.tags.2": {"The tags.2 field must not be greater than 50 characters."},
			}},
		{name: "everything wrong", input: `{title: "", body: "\u0000", tags: [""]}`,
			want: map[string][]string{
				"input.title":  {"The title field is required."},
				"input.body":   {"The body field must not contain null characters."},
				"input.tags.0": {"The tags.0 field is required."},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := countPosts(t, db)
			res := schema.Do(asUser, graphql.Request{Query: `mutation { createPost(input: ` + tt.input + `) { id title tags } }`, Present: graphql.Unmasked})
			if tt.want == nil {
				if len(res.Errors) > 0 || countPosts(t, db) != before+1 {
					t.Fatalf("valid input: errors %v, posts %d → %d", res.Errors, before, countPosts(t, db))
				}
				if strings.Contains(string(res.Data), `" Title "`) {
					t.Errorf("the title was stored untrimmed: %s", res.Data)
				}
				return
			}
			if len(res.Errors) != 1 {
				t.Fatalf("errors %v; want one VALIDATION_FAILED", res.Errors)
			}
			var coded *errcode.Error
			if !errors.As(res.Errors[0], &coded) || coded.Code != errcode.CodeValidationFailed {
				t.Fatalf("error %v; want VALIDATION_FAILED", res.Errors[0])
			}
			if !reflect.DeepEqual(coded.Fields, tt.want) {
				t.Errorf("fields %v; want %v", coded.Fields, tt.want)
			}
			if n := countPosts(t, db); n != before {
				t.Errorf("invalid input wrote a post: %d → %d", before, n)
			}
		})
	}
}

func countPosts(t *testing.T, db *database) int {
	t.Helper()
	var n int
	if err := db.posts.db.QueryRowContext(context.Background(), "SELECT count(*) FROM posts").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
