package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/pgstore"
	"github.com/gqlkit/gqlkit/articles/sqlitestore"
	"github.com/gqlkit/gqlkit/auth"
)

var (
	//go:embed migrations/posts.postgres.sql
	postsPostgres string
	//go:embed migrations/posts.sqlite.sql
	postsSQLite string
)

// store is what the server keeps in its database: users and articles (the
// kit's stores) and the posts of the sample GraphQL schema.
type store interface {
	articles.Store
	auth.UserStore
	Migrate(ctx context.Context) error
}

// database is an open database of either kind.
type database struct {
	kind    string // "sqlite" or "postgres"
	where   string // the file, or the URL without its password, for logs
	path    string // the SQLite file; "" for PostgreSQL
	store   store
	posts   *postStore
	closeFn func()
}

func (db *database) Close() { db.closeFn() }

// openDatabase opens the database that DATABASE_URL names:
// "sqlite:PATH" (a file, created with its folder when missing) or a
// postgres:// (or postgresql://) URL.
func openDatabase(ctx context.Context, rawURL string) (*database, error) {
	switch {
	case strings.HasPrefix(rawURL, "sqlite:"):
		return openSQLite(strings.TrimPrefix(strings.TrimPrefix(rawURL, "sqlite:"), "//"))
	case strings.HasPrefix(rawURL, "postgres://"), strings.HasPrefix(rawURL, "postgresql://"):
		return openPostgres(ctx, rawURL)
	}
	return nil, fmt.Errorf("DATABASE_URL %q: use sqlite:PATH or a postgres:// URL", redact(rawURL))
}

func openSQLite(path string) (*database, error) {
	if path == "" || path == ":memory:" {
		return nil, errors.New("DATABASE_URL: sqlite needs a file path, such as sqlite:data/app.db")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the folder of %s: %w", path, err)
	}
	// The articles store keeps its own pools (one writer, many readers).
	// The posts get the same arrangement: SQLite has one write lock, so
	// writes queue on a single connection instead of racing for it.
	st, err := sqlitestore.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	readers, err := sql.Open("sqlite", sqlitestore.DSN(path))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	writer, err := sql.Open("sqlite", sqlitestore.DSN(path))
	if err != nil {
		st.Close()
		readers.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	// Readers are bounded as the articles store bounds its own: without
	// a bound, every request in flight opens a connection (and its file
	// handles).
	n := max(4, runtime.GOMAXPROCS(0))
	readers.SetMaxOpenConns(n)
	readers.SetMaxIdleConns(n)
	if err := writer.Ping(); err != nil {
		st.Close()
		readers.Close()
		writer.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	posts := newPostStore(readers, dialectSQLite)
	posts.writer = writer
	return &database{
		kind: "sqlite", where: path, path: path,
		store: st,
		posts: posts,
		closeFn: func() {
			writer.Close()
			readers.Close()
			st.Close()
		},
	}, nil
}

func openPostgres(ctx context.Context, rawURL string) (*database, error) {
	pool, err := pgxpool.New(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connecting to %s: %w", redact(rawURL), err)
	}
	db := stdlib.OpenDBFromPool(pool)
	return &database{
		kind: "postgres", where: redact(rawURL),
		store:   pgstore.New(pool),
		posts:   newPostStore(db, dialectPostgres),
		closeFn: func() { db.Close(); pool.Close() },
	}, nil
}

// migrate creates the tables: users and articles, then posts.
func (db *database) migrate(ctx context.Context) error {
	if err := db.store.Migrate(ctx); err != nil {
		return fmt.Errorf("migrating users and articles: %w", err)
	}
	script := postsSQLite
	if db.kind == "postgres" {
		script = postsPostgres
	}
	if _, err := db.posts.w().ExecContext(ctx, script); err != nil {
		return fmt.Errorf("migrating posts: %w", err)
	}
	return nil
}

// redact hides the password of a database URL.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// secretFile is where the server keeps the JWT secret it generates when
// JWT_SECRET is unset: beside the SQLite file, or in data/ for PostgreSQL.
func secretFile(db *database) string {
	if db.path != "" {
		return filepath.Join(filepath.Dir(db.path), "jwt-secret")
	}
	return filepath.Join("data", "jwt-secret")
}

// loadSecret returns the JWT secret kept in path, creating it (32 random
// bytes, hex-encoded, mode 0600) the first time. A file that other users
// can read is refused: anyone who reads it can mint tokens.
func loadSecret(path string) ([]byte, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createSecret(path)
	case err != nil:
		return nil, err
	case info.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("%s is readable by other users (mode %v); run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(secret) < 32 {
		return nil, fmt.Errorf("%s does not hold a hex-encoded secret of at least 32 bytes", path)
	}
	return secret, nil
}

func createSecret(path string) ([]byte, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadSecret(path) // another process created it first
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(hex.EncodeToString(secret) + "\n"); err != nil {
		f.Close()
		return nil, err
	}
	return secret, f.Close()
}
