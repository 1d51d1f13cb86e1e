package rest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	msqlite "modernc.org/sqlite"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlite"
)

// DB is an open benchmark database: the kit's store and the handle of the
// bare handler, on the same database with the same driver settings.
type DB struct {
	// Kind is "sqlite" or "postgres".
	Kind string
	// Store is the kit's store, migrated.
	Store Store

	bare  http.Handler
	close func()
}

// Kit returns the kit's handler over d.Store (see [NewKit]).
func (d *DB) Kit() (http.Handler, error) { return NewKit(d.Store) }

// Bare returns the bare handler over the same database.
func (d *DB) Bare() http.Handler { return d.bare }

// Close closes what d opened.
func (d *DB) Close() { d.close() }

// NewKit returns articles.NewHandler over store with the default
// configuration, mounted on an http.ServeMux at "/api/articles" and
// "/api/articles/" as the example server mounts it, but without the
// auth.Verifier.Optional middleware around it (the bare handler has no
// authentication either; reads need none).
func NewKit(store articles.Store) (http.Handler, error) {
	h, err := articles.NewHandler(store, articles.Config{})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	mux.Handle(Path+"/", h)
	return mux, nil
}

// Open opens the database named by spec: "sqlite:PATH" ([OpenSQLite]) or a
// postgres:// or postgresql:// URL ([OpenPostgres]; a search_path
// parameter in the URL places the tables in that schema).
func Open(ctx context.Context, spec string) (*DB, error) {
	switch {
	case strings.HasPrefix(spec, "sqlite:"):
		return OpenSQLite(ctx, strings.TrimPrefix(spec, "sqlite:"))
	case strings.HasPrefix(spec, "postgres://"), strings.HasPrefix(spec, "postgresql://"):
		cfg, err := pgxpool.ParseConfig(spec)
		if err != nil {
			return nil, err
		}
		return OpenPostgres(ctx, cfg)
	}
	return nil, fmt.Errorf("database %q: want sqlite:PATH or a postgres:// URL", spec)
}

// OpenSQLite opens the SQLite file at path (created when missing) and
// migrates it. The kit's store is sqlite.Open(path): a pool of one
// connection for writes and up to max(4, GOMAXPROCS) read-only connections
// opened with sqlite.DSN(path) plus query_only. The bare handler gets
// a *sql.DB of its own, opened the same way as that read pool: the same
// DSN, the same driver, the same pool size.
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	store, err := sqlite.Open(path)
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		_ = store.Close()
		return nil, err
	}
	conn, err := msqlite.NewConnector(sqlite.DSN(path) + "&_pragma=query_only(1)")
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	db := sql.OpenDB(conn)
	n := max(4, runtime.GOMAXPROCS(0))
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		_ = store.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return &DB{
		Kind:  "sqlite",
		Store: kitStore{store.Users(), store.Articles()},
		bare:  NewBareSQL(db),
		close: func() { _ = db.Close(); _ = store.Close() },
	}, nil
}

// OpenPostgres opens a pool with cfg, migrates the kit's tables into the
// first schema of its search_path, and serves both handlers from that one
// pool (pgx defaults: cached prepared statements, max(4, NumCPU)
// connections).
func OpenPostgres(ctx context.Context, cfg *pgxpool.Config) (*DB, error) {
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connecting to %s:%d: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	store := postgres.New(pool)
	if err := store.Migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{
		Kind:  "postgres",
		Store: kitStore{store.Users(), store.Articles()},
		bare:  NewBarePgx(pool),
		close: pool.Close,
	}, nil
}

// SchemaPrefix starts the name of every PostgreSQL schema that
// [ResetSchema] and [DropSchema] agree to drop.
const SchemaPrefix = "rest_bench"

// ResetSchema drops schema name (with everything in it) from the database
// at url if it exists, and creates it empty. name must start with
// SchemaPrefix.
func ResetSchema(ctx context.Context, url, name string) error {
	return onSchema(ctx, url, name, "DROP SCHEMA IF EXISTS %[1]s CASCADE; CREATE SCHEMA %[1]s")
}

// DropSchema drops schema name, with everything in it, from the database at
// url. name must start with SchemaPrefix.
func DropSchema(ctx context.Context, url, name string) error {
	return onSchema(ctx, url, name, "DROP SCHEMA IF EXISTS %[1]s CASCADE")
}

func onSchema(ctx context.Context, url, name, format string) error {
	if !strings.HasPrefix(name, SchemaPrefix) {
		return fmt.Errorf("schema %q: only schemas named %s… are dropped", name, SchemaPrefix)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, fmt.Sprintf(format, pgx.Identifier{name}.Sanitize()))
	return err
}

// errNoSchema is returned by SearchPath for a URL without search_path.
var errNoSchema = errors.New("the URL has no search_path parameter naming the benchmark's schema")

// SearchPath returns the search_path parameter of a PostgreSQL URL: the
// schema a benchmark server works in.
func SearchPath(url string) (string, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "", err
	}
	name := cfg.RuntimeParams["search_path"]
	if name == "" {
		return "", errNoSchema
	}
	return name, nil
}
