package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Post is a row of the posts table, shaped for the GraphQL schema: the
// default resolver reads its fields by their json names.
type Post struct {
	ID        int64    `json:"id"`
	UserID    int64    `json:"-"`
	Title     string   `json:"title"`
	Body      string   `json:"body"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"createdAt"`
	Author    *User    `json:"author"` // loaded only when the client selects it

	created time.Time // CreatedAt as a time: the key of postsConnection's cursors
}

// User is the public view of a user: never the e-mail or the password.
type User struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type dialect int

const (
	dialectSQLite dialect = iota
	dialectPostgres
)

// querier is what postStore needs of a *sql.DB; tests wrap it to count
// queries.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// postStore reads and writes posts with the same SQL on both databases.
type postStore struct {
	db      querier // reads
	writer  querier // writes; nil means db
	dialect dialect
	now     func() time.Time
	// keys is the idempotency store of the same database: a write by a
	// request that holds one of its claims joins the claim's transaction,
	// and the reads that follow run in it.
	keys claimStore
}

// w is where the writes of a request with context ctx go: into the
// transaction of its idempotency claim, if it holds one, so that they
// commit together with the recorded answer; else to the writer. SQLite
// takes one writer at a time, so the server writes through the articles
// store's single writer connection, and writers queue in Go instead of
// racing for the lock and timing out under load.
func (s *postStore) w(ctx context.Context) (querier, error) {
	if s.keys != nil {
		tx, err := s.keys.Tx(ctx)
		if err != nil {
			return nil, err
		}
		if tx != nil {
			return tx, nil
		}
	}
	if s.writer != nil {
		return s.writer, nil
	}
	return s.db, nil
}

// r is where the reads of a request with context ctx go: into the
// transaction of its idempotency claim once a write has begun it, so that
// the request never holds one connection while it waits for another
// (which, with every connection of a small pool so held, would wait
// forever); else to the readers.
func (s *postStore) r(ctx context.Context) querier {
	if s.keys != nil {
		if tx, ok := s.keys.ActiveTx(ctx); ok {
			return tx
		}
	}
	return s.db
}

func newPostStore(db querier, d dialect) *postStore {
	return &postStore{db: db, dialect: d, now: time.Now}
}

const timeLayout = "2006-01-02T15:04:05.000000Z"

// timestamp is how a time is passed to the database: SQLite keeps the
// fixed-width text the articles store uses, PostgreSQL a timestamptz.
func (s *postStore) timestamp(t time.Time) any {
	if s.dialect == dialectSQLite {
		return t.Format("2006-01-02 15:04:05.000000+00:00")
	}
	return t
}

const postColumns = "id, user_id, title, body, tags, created_at"

func scanPost(row interface{ Scan(...any) error }) (*Post, error) {
	var p Post
	var tags sql.NullString
	var created time.Time
	if err := row.Scan(&p.ID, &p.UserID, &p.Title, &p.Body, &tags, &created); err != nil {
		return nil, err
	}
	if tags.Valid {
		if err := json.Unmarshal([]byte(tags.String), &p.Tags); err != nil {
			return nil, fmt.Errorf("post %d: tags: %w", p.ID, err)
		}
	}
	p.created = created.UTC()
	p.CreatedAt = p.created.Format(timeLayout)
	return &p, nil
}

// latest returns the newest n posts.
func (s *postStore) latest(ctx context.Context, n int) ([]*Post, error) {
	rows, err := s.r(ctx).QueryContext(ctx,
		"SELECT "+postColumns+" FROM posts ORDER BY created_at DESC, id DESC LIMIT $1", n)
	if err != nil {
		return nil, err
	}
	return scanPosts(rows, n)
}

// scanPosts reads every row of rows (about n) as posts, and closes rows.
func scanPosts(rows *sql.Rows, n int) ([]*Post, error) {
	defer rows.Close()
	posts := make([]*Post, 0, n)
	for rows.Next() {
		p, err := scanPost(rows)
		if err != nil {
			return nil, err
		}
		posts = append(posts, p)
	}
	return posts, rows.Err()
}

// find returns one post, or an error wrapping sql.ErrNoRows.
func (s *postStore) find(ctx context.Context, id int64) (*Post, error) {
	return scanPost(s.r(ctx).QueryRowContext(ctx, "SELECT "+postColumns+" FROM posts WHERE id = $1", id))
}

// loadAuthors fills the Author of every post with one query.
func (s *postStore) loadAuthors(ctx context.Context, posts []*Post) error {
	if len(posts) == 0 {
		return nil
	}
	ids := make([]any, 0, len(posts))
	seen := map[int64]bool{}
	var marks []string
	for _, p := range posts {
		if !seen[p.UserID] {
			seen[p.UserID] = true
			ids = append(ids, p.UserID)
			marks = append(marks, "$"+strconv.Itoa(len(ids)))
		}
	}
	rows, err := s.r(ctx).QueryContext(ctx, "SELECT id, name FROM users WHERE id IN ("+strings.Join(marks, ", ")+")", ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	users := map[int64]*User{}
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name); err != nil {
			return err
		}
		users[u.ID] = &u
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range posts {
		p.Author = users[p.UserID]
	}
	return nil
}

// userExists reports whether there is a user id.
func (s *postStore) userExists(ctx context.Context, id int64) (bool, error) {
	var one int
	err := s.r(ctx).QueryRowContext(ctx, "SELECT 1 FROM users WHERE id = $1", id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// errUserGone reports a write by a user who has been deleted since their
// token was issued.
var errUserGone = errcode.Unauthenticated("")

// create inserts a post by userID, in one statement that writes nothing
// when the user no longer exists.
func (s *postStore) create(ctx context.Context, userID int64, title, body string, tags []string) (*Post, error) {
	var tagsJSON any
	if tags != nil {
		b, err := json.Marshal(tags)
		if err != nil {
			return nil, err
		}
		tagsJSON = string(b)
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	var id int64
	w, err := s.w(ctx)
	if err != nil {
		return nil, err
	}
	err = sqlstore.WriteReturning(ctx, w,
		"INSERT INTO posts (user_id, title, body, tags, created_at) "+
			"SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1) RETURNING id",
		[]any{userID, title, body, tagsJSON, s.timestamp(now)}, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUserGone
	}
	if err != nil {
		return nil, err
	}
	return &Post{ID: id, UserID: userID, Title: title, Body: body, Tags: tags, CreatedAt: now.Format(timeLayout)}, nil
}

// deleteOwn deletes post id if userID wrote it. It answers NOT_FOUND when
// there is no such post and FORBIDDEN when someone else wrote it.
func (s *postStore) deleteOwn(ctx context.Context, id, userID int64) (*Post, error) {
	w, err := s.w(ctx)
	if err != nil {
		return nil, err
	}
	p, err := scanPost(rowFunc(func(dest ...any) error {
		return sqlstore.WriteReturning(ctx, w, "DELETE FROM posts WHERE id = $1 AND user_id = $2 RETURNING "+postColumns,
			[]any{id, userID}, dest...)
	}))
	if err == nil {
		return p, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if _, err := s.find(ctx, id); errors.Is(err, sql.ErrNoRows) {
		return nil, errcode.NotFound("Post not found.")
	} else if err != nil {
		return nil, err
	}
	return nil, errcode.Forbidden("You can only delete your own posts.")
}

// rowFunc is a scanner made of a function, for scanPost.
type rowFunc func(dest ...any) error

func (f rowFunc) Scan(dest ...any) error { return f(dest...) }
