package main

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The rows of workload L. Foreign keys stay ids: the GraphQL fields author,
// books, reviews and reviewer are batch resolvers that follow them.
type author struct {
	ID   int
	Name string
}

type book struct {
	ID       int
	Title    string
	Year     int
	Genre    string
	AuthorID int `graphql:"-"`
}

type review struct {
	ID         int
	Rating     int
	Body       string
	BookID     int `graphql:"-"`
	ReviewerID int `graphql:"-"`
}

// maxFirst is the clamp of every first argument.
const maxFirst = 50

func clamp(first int) int { return min(max(first, 0), maxFirst) }

// store reads the library through a pgx pool and counts the statements it
// sends, in all and for the request whose context carries a counter.
type store struct {
	pool       *pgxpool.Pool
	statements atomic.Int64
}

type requestCounterKey struct{}

// withCounter returns ctx carrying n, which counts the statements sent
// with ctx.
func withCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, requestCounterKey{}, n)
}

// TraceQueryStart counts a statement (pgx.QueryTracer).
func (s *store) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	s.statements.Add(1)
	if n, ok := ctx.Value(requestCounterKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
	return ctx
}

// TraceQueryEnd does nothing (pgx.QueryTracer).
func (s *store) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// openStore connects to url with a pool of size connections.
func openStore(ctx context.Context, url string, size int) (*store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.MaxConns, cfg.MinConns = int32(size), int32(size)
	s := &store{}
	cfg.ConnConfig.Tracer = s
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, err
	}
	if err := s.pool.Ping(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// envInt reads a positive integer from the environment, def when unset.
func envInt(getenv func(string) string, name string, def int) (int, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q is not a positive integer", name, v)
	}
	return n, nil
}

func (s *store) books(ctx context.Context, after, first int) ([]*book, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, title, published_year, genre, author_id FROM books WHERE id > $1 ORDER BY id LIMIT $2`, after, clamp(first))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanBook)
}

func scanBook(row pgx.CollectableRow) (*book, error) {
	b := &book{}
	return b, row.Scan(&b.ID, &b.Title, &b.Year, &b.Genre, &b.AuthorID)
}

func (s *store) author(ctx context.Context, id int) (*author, error) {
	a := &author{}
	err := s.pool.QueryRow(ctx, `SELECT id, name FROM authors WHERE id = $1`, id).Scan(&a.ID, &a.Name)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return a, err
}

// authors reads the authors of ids (repeats allowed), by id.
func (s *store) authors(ctx context.Context, ids []int) (map[int]*author, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name FROM authors WHERE id = ANY($1)`, distinct(ids))
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*author, error) {
		a := &author{}
		return a, row.Scan(&a.ID, &a.Name)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int]*author, len(list))
	for _, a := range list {
		out[a.ID] = a
	}
	return out, nil
}

// booksOf reads the first books of each author of ids, in id order, by
// author.
func (s *store) booksOf(ctx context.Context, ids []int, first int) (map[int][]*book, error) {
	rows, err := s.pool.Query(ctx, `SELECT b.id, b.title, b.published_year, b.genre, b.author_id
		FROM unnest($1::int[]) AS a(id),
		LATERAL (SELECT * FROM books WHERE books.author_id = a.id ORDER BY books.id LIMIT $2) AS b`, distinct(ids), clamp(first))
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, scanBook)
	if err != nil {
		return nil, err
	}
	out := make(map[int][]*book, len(ids))
	for _, b := range list {
		out[b.AuthorID] = append(out[b.AuthorID], b)
	}
	return out, nil
}

// reviewsOf reads the first reviews of each book of ids, in id order, by
// book.
func (s *store) reviewsOf(ctx context.Context, ids []int, first int) (map[int][]*review, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.id, r.rating, r.body, r.book_id, r.reviewer_id
		FROM unnest($1::int[]) AS b(id),
		LATERAL (SELECT * FROM reviews WHERE reviews.book_id = b.id ORDER BY reviews.id LIMIT $2) AS r`, distinct(ids), clamp(first))
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*review, error) {
		r := &review{}
		return r, row.Scan(&r.ID, &r.Rating, &r.Body, &r.BookID, &r.ReviewerID)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int][]*review, len(ids))
	for _, r := range list {
		out[r.BookID] = append(out[r.BookID], r)
	}
	return out, nil
}

// distinct returns ids without repeats, in first-seen order.
func distinct(ids []int) []int {
	seen := make(map[int]bool, len(ids))
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
