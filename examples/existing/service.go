package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/reqlog"
)

// audience is the aud of the service's access tokens.
const audience = "existing-api"

// config is what the service is started with.
type config struct {
	// BaseURL is where the service is reached ("http://127.0.0.1:8081"):
	// the iss of its tokens, and where the kit fetches their keys.
	BaseURL string
	// Logger receives the service's and the kit's lines.
	Logger *slog.Logger
	// BcryptCost is the cost of password hashes; 0 means bcrypt's default.
	BcryptCost int
}

// newService mounts the kit on the service's gorilla/mux router: the
// GraphQL endpoint verified with the service's own RS256 keys, and the
// articles over its members table. db must be migrated.
func newService(db *database, cfg config) (http.Handler, error) {
	if cfg.BcryptCost == 0 {
		cfg.BcryptCost = bcrypt.DefaultCost
	}
	identity, err := newIdentity(cfg.BaseURL, audience)
	if err != nil {
		return nil, err
	}
	// The kit reads the keys from the JWKS document, as it would a hosted
	// identity provider's: fetched on first use, cached, refetched on an
	// unknown kid.
	keys, err := auth.NewJWKS(cfg.BaseURL+"/.well-known/jwks.json", auth.JWKSConfig{})
	if err != nil {
		return nil, err
	}
	verifier, err := auth.NewVerifier(keys, auth.Config{Issuer: cfg.BaseURL, Audience: audience, Logger: cfg.Logger})
	if err != nil {
		return nil, err
	}
	presenter := apierror.Presenter{Logger: cfg.Logger}

	schema, err := newSchema(&resolvers{db: db, identity: identity, cost: cfg.BcryptCost, now: time.Now})
	if err != nil {
		return nil, err
	}
	gql, err := graphqlhttp.New(schema, graphqlhttp.Config{Auth: verifier, Presenter: presenter})
	if err != nil {
		return nil, err
	}

	arts, idemStore, err := db.stores()
	if err != nil {
		return nil, err
	}
	articlesHandler, err := articles.NewHandler(arts, articles.Config{
		// The articles' user_id is the member of the token's account.
		UserID: func(ctx context.Context) (int64, bool) {
			account, ok := auth.Subject(ctx)
			if !ok {
				return 0, false
			}
			return db.memberOf(ctx, account)
		},
		Presenter: presenter,
	})
	if err != nil {
		return nil, err
	}
	idem, err := idempotency.Middleware(idempotency.Config{Store: idemStore, Presenter: presenter})
	if err != nil {
		return nil, err
	}

	r := mux.NewRouter()
	r.Handle("/.well-known/jwks.json", identity).Methods(http.MethodGet)
	r.Handle("/api/graphql", gql)
	r.HandleFunc("/api/articles", articlesHandler.List).Methods(http.MethodGet)
	r.Handle("/api/articles", verifier.Required(idem(http.HandlerFunc(articlesHandler.Create)))).Methods(http.MethodPost)
	r.HandleFunc("/api/articles/{id}", articlesHandler.Show).Methods(http.MethodGet)
	r.Handle("/api/articles/{id}", verifier.Required(http.HandlerFunc(articlesHandler.Delete))).Methods(http.MethodDelete)
	return reqlog.Handler(cfg.Logger)(presenter.Recover(r)), nil
}
