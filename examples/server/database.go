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
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

var (
	//go:embed migrations/posts.postgres.sql
	postsPostgres string
	//go:embed migrations/posts.sqlite.sql
	postsSQLite string
	//go:embed migrations/secrets.postgres.sql
	secretsPostgres string
)

// store is what the server keeps in its database: users and articles (the
// kit's stores), idempotency keys, and the revoked and refresh tokens and
// the counts of failed logins of the auth package.
type store interface {
	articles.Store
	auth.UserStore
	Migrate(ctx context.Context, more ...string) error
	Idempotency() claimStore
	Tokens() auth.TokenStore
	Throttle() auth.LoginThrottle
}

// claimStore is the idempotency store of a SQL store, whose claims the
// server's own writes join.
type claimStore interface {
	idempotency.Store
	Tx(ctx context.Context) (*sql.Tx, error)
	ActiveTx(ctx context.Context) (*sql.Tx, bool)
}

// kitStore is the kit's stores of one database (a *sqlite.Store or a
// *postgres.Store) as a store.
type kitStore struct {
	*sqlstore.Users
	*sqlstore.Articles
	db kitDatabase
}

// kitDatabase is the Store of the sqlite and postgres packages.
type kitDatabase interface {
	Users() *sqlstore.Users
	Articles() *sqlstore.Articles
	Migrate(ctx context.Context, more ...string) error
	Idempotency() *sqlstore.Keys
	Tokens() *sqlstore.Tokens
	Throttle() *sqlstore.Throttle
}

func newKitStore(db kitDatabase) kitStore {
	return kitStore{Users: db.Users(), Articles: db.Articles(), db: db}
}

func (s kitStore) Migrate(ctx context.Context, more ...string) error {
	return s.db.Migrate(ctx, more...)
}
func (s kitStore) Idempotency() claimStore      { return s.db.Idempotency() }
func (s kitStore) Tokens() auth.TokenStore      { return s.db.Tokens() }
func (s kitStore) Throttle() auth.LoginThrottle { return s.db.Throttle() }

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
	// The articles store keeps its own pools: many readers, and the one
	// writer of the process. The posts are written through that writer
	// too: SQLite has one write lock, and a second writer connection would
	// contend with the first for it, each waiting up to the busy timeout,
	// while writes that queue on a single connection wait in Go.
	st, err := sqlite.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	readers, err := sql.Open("sqlite", sqlite.DSN(path))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	// Readers are bounded as the articles store bounds its own: without
	// a bound, every request in flight opens a connection (and its file
	// handles).
	n := max(4, runtime.GOMAXPROCS(0))
	readers.SetMaxOpenConns(n)
	readers.SetMaxIdleConns(n)
	posts := newPostStore(readers, dialectSQLite)
	posts.writer = st.WriteDB()
	posts.keys = st.Idempotency()
	return &database{
		kind: "sqlite", where: path, path: path,
		store: newKitStore(st),
		posts: posts,
		closeFn: func() {
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
	st := postgres.New(pool)
	posts := newPostStore(db, dialectPostgres)
	posts.keys = st.Idempotency()
	return &database{
		kind: "postgres", where: redact(rawURL),
		store:   newKitStore(st),
		posts:   posts,
		closeFn: func() { db.Close(); st.Close(); pool.Close() },
	}, nil
}

// migrate creates the tables: users, articles, idempotency keys, the
// revoked tokens, sessions and refresh tokens, and the failed logins (the
// kit's), then posts and, on PostgreSQL, the shared secrets (the
// server's), all in one transaction under the store's lock, so that any
// number of processes may start at once on an empty database.
func (db *database) migrate(ctx context.Context) error {
	scripts := []string{postsSQLite}
	if db.kind == "postgres" {
		scripts = []string{postsPostgres, secretsPostgres}
	}
	if err := db.store.Migrate(ctx, scripts...); err != nil {
		return fmt.Errorf("migrating the database: %w", err)
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
// JWT_SECRET is unset and the database is SQLite: beside the database file.
func secretFile(db *database) string {
	return filepath.Join(filepath.Dir(db.path), "jwt-secret")
}

// newSecret returns 32 random bytes.
func newSecret() ([]byte, error) {
	secret := make([]byte, 32)
	_, err := rand.Read(secret)
	return secret, err
}

// decodeSecret reads a hex-encoded secret of at least 32 bytes.
func decodeSecret(raw, where string) ([]byte, error) {
	secret, err := hex.DecodeString(strings.TrimSpace(raw))
	if err != nil || len(secret) < 32 {
		return nil, fmt.Errorf("%s does not hold a hex-encoded secret of at least 32 bytes", where)
	}
	return secret, nil
}

// loadSecret returns the JWT secret kept in path, creating it (32 random
// bytes, hex-encoded, mode 0600) the first time. A file that other users
// can read is refused: anyone who reads it can mint tokens.
func loadSecret(path string) ([]byte, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := createSecret(path); err != nil {
			return nil, err
		}
		return loadSecret(path) // ours, or the one another process linked first
	case err != nil:
		return nil, err
	case info.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("%s is readable by other users (mode %v); run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeSecret(string(raw), path)
}

// createSecret writes a new secret to path atomically: whole, in a
// temporary file beside it, then linked to path, which never replaces a
// file another process linked first. Either way, path then holds a whole
// secret.
func createSecret(path string) error {
	secret, err := newSecret()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".jwt-secret-*") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(hex.EncodeToString(secret) + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(f.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// sharedSecret returns the JWT secret kept in the PostgreSQL database,
// creating it the first time: every process on the database reads the one
// secret the first of them inserted, so that they accept each other's
// tokens.
func (db *database) sharedSecret(ctx context.Context) ([]byte, error) {
	secret, err := newSecret()
	if err != nil {
		return nil, err
	}
	var stored string
	err = db.posts.db.QueryRowContext(ctx, `INSERT INTO server_secrets (name, value) VALUES ('jwt', $1)
ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value`, hex.EncodeToString(secret)).Scan(&stored)
	if err != nil {
		return nil, fmt.Errorf("reading the shared JWT secret: %w", err)
	}
	return decodeSecret(stored, "the table server_secrets")
}
