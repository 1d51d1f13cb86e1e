// Command existing is a service that was running before it took the kit:
// gorilla/mux, log/slog, its own accounts table keyed by UUID and its own
// identity provider signing RS256 tokens, published as a JWKS document.
// It mounts the kit with configuration only:
//
//   - the GraphQL endpoint (graphqlhttp), whose gate verifies the
//     service's tokens through its JWKS (auth.NewJWKS); signUp is a public
//     mutation, rename needs a token, and resolvers read the account's
//     UUID with auth.Subject;
//   - the articles REST API, whose user_id (an integer, as the
//     specification says) is the id of the service's members table: the
//     kit's articles table points its foreign key there
//     (sqlstore.UsersTable), and the kit creates no users table;
//   - the kit's log lines in the service's slog handler, with request ids.
//
// Run it from the examples directory:
//
//	go run ./existing                                    # SQLite in data/existing.db
//	DATABASE_URL=postgres://localhost/app go run ./existing
//
// Settings: ADDR (127.0.0.1:8081), BASE_URL (http://ADDR: the tokens' iss
// and where the kit fetches the keys), DATABASE_URL or SQLITE_PATH.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/reqlog"
	"github.com/gqlkit/gqlkit/sqlite"
)

func main() {
	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(os.Stderr, nil)))
	if err := run(logger); err != nil {
		logger.Error("existing: stopped", "error", err)
		os.Exit(1)
	}
}

func run(logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	addr := env("ADDR", "127.0.0.1:8081")
	db, err := openFromEnv(ctx)
	if err != nil {
		return err
	}
	defer db.close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler, err := newService(db, config{BaseURL: env("BASE_URL", "http://"+ln.Addr().String()), Logger: logger})
	if err != nil {
		_ = ln.Close()
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	logger.Info("existing: listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// openFromEnv opens and migrates the database that DATABASE_URL
// (PostgreSQL) or SQLITE_PATH names.
func openFromEnv(ctx context.Context) (*database, error) {
	if url := os.Getenv("DATABASE_URL"); url != "" {
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			return nil, err
		}
		db := openPostgres(pool)
		closeDB := db.close
		db.close = func() { closeDB(); pool.Close() }
		if err := db.migrate(ctx, postgres.ArticlesMigration); err != nil {
			db.close()
			return nil, fmt.Errorf("migrate: %w", err)
		}
		return db, nil
	}
	path := env("SQLITE_PATH", filepath.Join("data", "existing.db"))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := openSQLite(path)
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx, sqlite.ArticlesMigration); err != nil {
		db.close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return db, nil
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
