// Command chi mounts gqlkit's handlers on a github.com/go-chi/chi/v5 router
// instead of http.ServeMux, to show that the kit fits any router: its
// handlers are plain http.Handlers, its middlewares are
// func(http.Handler) http.Handler, and the articles route methods read the
// article id with r.PathValue, which chi sets (since v5.0.12).
//
// It serves
//
//	POST     /api/graphql             a small read-only schema over the articles
//	GET      /api/graphql
//	POST     /api/auth/login          {email, password} → {access_token, …}
//	GET      /api/articles            published articles, paginated
//	GET      /api/articles/{article}
//	POST     /api/articles            with a bearer token
//	DELETE   /api/articles/{article}  with a bearer token
//
// over a SQLite file.
//
// Usage:
//
//	chi [-addr :8080] [-db data/app.db]
//
// The environment variables ADDR and SQLITE_PATH set the defaults of the
// flags. JWT_SECRET (at least 32 bytes) signs the tokens; when it is unset,
// a random secret lives as long as the process. The users table is the
// example server's, so that command adds users to the same file:
//
//	go -C examples run ./server users add --name Ada --email ada@example.com --password secret
//	go -C examples/chi run .   # a module of its own: the kit does not require chi
package main

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/reqlog"
	"github.com/gqlkit/gqlkit/sqlite"
)

func main() {
	addr := flag.String("addr", envOr("ADDR", ":8080"), "the address to listen on")
	dbPath := flag.String("db", envOr("SQLITE_PATH", "data/app.db"), "the SQLite database file")
	flag.Parse()

	// log/slog, JSON on standard error; the IDHandler adds the request id
	// to every line logged with a request's context.
	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(os.Stderr, nil)))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *dbPath, logger); err != nil {
		logger.Error("failed", "error", err)
		os.Exit(1)
	}
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// run serves until ctx is cancelled, then lets in-flight requests finish.
func run(ctx context.Context, addr, dbPath string, logger *slog.Logger) error {
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return err
	}
	store, err := sqlite.Open(dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		return err
	}
	secret, err := jwtSecret(logger)
	if err != nil {
		return err
	}
	router, err := newRouter(store.Users(), store.Articles(), secret, logger)
	if err != nil {
		return err
	}

	srv := &http.Server{Addr: addr, Handler: router, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	logger.Info("serving", "addr", addr, "database", dbPath)
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

// jwtSecret returns JWT_SECRET, or a random secret for this process only.
func jwtSecret(logger *slog.Logger) ([]byte, error) {
	if s := os.Getenv("JWT_SECRET"); s != "" {
		return []byte(s), nil // auth refuses one shorter than 32 bytes
	}
	logger.Warn("JWT_SECRET is unset: tokens will not survive a restart")
	secret := make([]byte, auth.MinSecretBytes)
	_, err := rand.Read(secret)
	return secret, err
}

// newRouter mounts the kit's handlers on a chi router: the users'
// credentials for login, and the articles.
func newRouter(users auth.Users, db articles.Store, secret []byte, logger *slog.Logger) (http.Handler, error) {
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		return nil, err
	}
	issuer, err := auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		return nil, err
	}
	login, err := auth.NewLogin(users, issuer, auth.LoginConfig{Logger: logger})
	if err != nil {
		return nil, err
	}
	presenter := apierror.Presenter{Logger: logger} // one for both APIs
	arts, err := articles.NewHandler(db, articles.Config{Presenter: presenter})
	if err != nil {
		return nil, err
	}
	schema, err := newSchema(db)
	if err != nil {
		return nil, err
	}
	gql, err := graphqlhttp.New(schema, graphqlhttp.Config{
		Presenter: presenter,
		Auth:      verifier, // reqlog below logs every route
	})
	if err != nil {
		return nil, err
	}

	r := chi.NewRouter()
	r.Use(reqlog.Handler(logger))
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message":"Not found."}`)
	})
	r.Handle("/api/graphql", gql)
	r.Handle("/api/auth/login", login) // it answers 405 to other methods itself
	r.Route("/api/articles", func(r chi.Router) {
		r.Get("/", arts.List)
		r.Get("/{article}", arts.Show)
		r.With(verifier.Required).Post("/", arts.Create)
		r.With(verifier.Required).Delete("/{article}", arts.Delete)
	})
	return r, nil
}

// maxFirst caps the articles query's first argument.
const maxFirst = 50

// newSchema builds a small read-only schema over the articles:
//
//	type Author { id: ID!  name: String! }
//	type Article { id: ID!  title: String!  body: String!  author: Author! }
//	type Query { articles(first: Int = 10): [Article!]!  me: ID }
//
// Fields without a resolver read the articles.Article struct fields.
func newSchema(db articles.Store) (*graphql.Schema, error) {
	author := &graphql.Object{Name: "Author", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	article := &graphql.Object{Name: "Article", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "author", Type: graphql.NewNonNull(author)},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "articles", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(article))),
			Description: "The newest published articles, at most 50.",
			Args:        []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ First int }) ([]articles.Article, error) {
				n := min(args.First, maxFirst)
				if n <= 0 {
					return []articles.Article{}, nil
				}
				page := articles.Page{Articles: make([]articles.Article, 0, n)}
				err := db.ListPublished(ctx, n, 0, &page)
				return page.Articles, err
			})},
		{Name: "me", Type: graphql.ID, Description: "The id of the authenticated user, or null.",
			Typed: graphql.Resolver(func(ctx context.Context, _ any, _ graphql.NoArgs) (*int64, error) {
				if id, ok := auth.UserID(ctx); ok {
					return &id, nil
				}
				return nil, nil
			})},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query})
}
