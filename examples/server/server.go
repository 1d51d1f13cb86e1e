package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/reqlog"
)

// routes wires the service into a stock http.ServeMux: this is all it
// takes to mount gqlkit in an existing net/http service.
func routes(db *database, s settings, verifier *auth.Verifier, issuer *auth.Issuer, logger *zerolog.Logger, tel *telemetry) (http.Handler, error) {
	// The kit logs through log/slog: its lines go to the server's zerolog
	// logger, with the request id and the ids of the request's trace.
	requestLogger := kitLogger(logger)
	// One presenter for every API: the same errors answered, logged and
	// reported alike.
	presenter := apierror.Presenter{Debug: s.debug, Logger: requestLogger}

	schema, err := postsSchema(db.posts)
	if err != nil {
		return nil, err
	}
	gqlConfig := s.graphql // limits and introspection, from the environment
	gqlConfig.Presenter = presenter
	gqlConfig.Auth = verifier
	gqlConfig.Tracer = tel.tracer // nil when tracing is off
	gql, err := graphqlhttp.New(schema, gqlConfig)
	if err != nil {
		return nil, err
	}

	// Lists are read whole before they are sent, within a response budget
	// of their own; a client that stops reading one is cut off after the
	// same stall timeout as GraphQL's, and a list waits for its first
	// share as long as a GraphQL request does (GRAPHQL_STALL_TIMEOUT,
	// GRAPHQL_RESPONSE_BUDGET_WAIT).
	arts, err := articles.NewHandler(db.store, articles.Config{BaseURL: s.appURL, Presenter: presenter,
		StallTimeout: s.graphql.StallTimeout, ResponseBudgetWait: s.graphql.ResponseBudgetWait})
	if err != nil {
		return nil, err
	}
	// Refresh tokens live in the database beside the revoked tokens; the
	// login hands out the first one in a cookie that only goes to
	// /api/auth, and Secure whenever the service is reached over HTTPS.
	refresher, err := auth.NewRefresher(issuer, auth.RefreshConfig{
		Store:        db.store.Tokens(),
		TTL:          s.refresh.ttl,
		IdleTTL:      s.refresh.idle,
		ReuseGrace:   reuseGrace(s.refresh.grace),
		SecureCookie: strings.HasPrefix(s.appURL, "https://"),
		Logger:       requestLogger,
	})
	if err != nil {
		return nil, err
	}
	// Failed logins are counted in the database, so that every process
	// on it throttles the same guesses.
	login, err := auth.NewLogin(emailCase{db.store}, issuer, auth.LoginConfig{
		Cost:           s.bcryptCost,
		Refresh:        refresher,
		Throttle:       db.store.Throttle(),
		TrustedProxies: s.proxies,
		Logger:         requestLogger,
	})
	if err != nil {
		return nil, err
	}
	logout, err := auth.NewLogout(verifier, auth.LogoutConfig{Refresh: refresher, Logger: requestLogger})
	if err != nil {
		return nil, err
	}

	// Idempotency-Key on POST /api/articles and on GraphQL requests: keys
	// live in the same database, and the writes of a request holding one
	// commit together with its recorded answer. A recorded answer's
	// client is cut off after the same stall timeout as GraphQL's; other
	// answers pass through to the handlers, under their own.
	restKeys, err := idempotency.Middleware(idempotency.Config{Store: db.store.Idempotency(), Presenter: presenter,
		StallTimeout: s.graphql.StallTimeout})
	if err != nil {
		return nil, err
	}
	gqlKeys, err := idempotency.Middleware(idempotency.Config{
		Store:        db.store.Idempotency(),
		Subject:      graphQLSubject(verifier),
		WriteError:   gql.WriteError,
		StallTimeout: s.graphql.StallTimeout,
		Presenter:    presenter, // its Logger; gql.WriteError answers
	})
	if err != nil {
		return nil, err
	}

	mux := http.NewServeMux()
	// Remember checks the credentials once, for the key's subject and the
	// endpoint's mutation gate alike.
	// A browser gets the GraphiQL page there when introspection is on.
	api, err := withGraphiQL(s, mux, verifier.Remember(gqlKeys(gql)))
	if err != nil {
		return nil, err
	}
	mux.Handle("/api/graphql", api)
	// Reads are public: no token is looked at, so a stale one does not
	// stop a client from reading. For the other methods Optional sets the
	// user and refuses bad tokens; the handler answers 401 itself for a
	// write without a user, and 405 for a method it does not serve.
	mux.Handle("GET /api/articles", arts)
	mux.Handle("GET /api/articles/", arts)
	mux.Handle("/api/articles", verifier.Optional(restKeys(arts)))
	mux.Handle("/api/articles/", verifier.Optional(restKeys(arts)))
	// No method in these patterns: the handlers answer 405 with Allow:
	// POST themselves, in the API's JSON shape.
	mux.Handle("/api/auth/login", login)
	mux.Handle("/api/auth/refresh", refresher)
	mux.Handle("/api/auth/logout", logout)
	mux.Handle("/healthz", health(db, requestLogger))
	mux.Handle("/readyz", ready(db)) // readiness.go
	mountSchema(mux, gql, s)         // schema.go
	mux.Handle("/", http.HandlerFunc(notFound))
	// When tracing is on, the HTTP server span of the request outermost;
	// then request ids and access lines (inside the span, so that the
	// access line has its ids); then a panic anywhere below is a masked
	// 500 for that request only.
	return tel.handler(mux, func(h http.Handler) http.Handler {
		return reqlog.Handler(requestLogger)(presenter.Recover(h))
	}), nil
}

// reuseGrace is JWT_REFRESH_REUSE_GRACE as auth.RefreshConfig takes it:
// there zero means the default and a negative value none.
func reuseGrace(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// graphQLSubject names the user of a GraphQL request for its idempotency
// key. A request whose credentials failed passes through and gets the
// endpoint's own 401 (or 503).
func graphQLSubject(a *auth.Verifier) func(*http.Request) (string, bool) {
	return func(r *http.Request) (string, bool) {
		ctx, err := a.AuthenticateContext(r)
		if err != nil {
			return "", false
		}
		id, ok := auth.UserID(ctx)
		if !ok {
			return "", false
		}
		return strconv.FormatInt(id, 10), true
	}
}

// emailCase looks users up by their normalised e-mail address, the form
// "users add" stores.
type emailCase struct{ users auth.UserStore }

func (u emailCase) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
	return u.users.PasswordHash(ctx, normalEmail(email))
}

// health answers 200 while the database answers, 503 otherwise.
func health(db *database, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed."})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if _, err := db.posts.latest(ctx, 1); err != nil {
			logger.LogAttrs(r.Context(), slog.LevelWarn, "health check: database unavailable", slog.Any("error", err))
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
}

func notFound(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not found."})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// closeAfterChunked ends the connection once a request whose body came
// chunked is answered. RFC 9112 §6.1: a request with both Content-Length
// and Transfer-Encoding may be an attempt to smuggle a second request past
// a proxy that reads the other length, and the server must close the
// connection after answering it. Go's server drops Content-Length in that
// case and serves the rest of the stream as the next request, and a
// handler cannot tell whether Content-Length was there, so every chunked
// request closes its connection: API clients rarely send one, and it costs
// them only a new connection.
func closeAfterChunked(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TransferEncoding) > 0 {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r)
	})
}

// serve runs the HTTP server until ctx is cancelled (SIGINT or SIGTERM),
// then stops accepting connections and lets in-flight requests finish
// within the shutdown timeout.
func serve(ctx context.Context, s settings, handler http.Handler, logger *zerolog.Logger) error {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.addr, err)
	}
	applyMemoryLimit(s.memoryLimit, logger)
	idle := &idleTracker{}
	idle.lastEnd.Store(time.Now().UnixNano())
	idleCtx, stopIdle := context.WithCancel(ctx)
	defer stopIdle()
	go idle.releaseWhenIdle(idleCtx, s.idleRelease, logger)
	srv := &http.Server{
		Handler:           idle.wrap(closeAfterChunked(handler)),
		ReadHeaderTimeout: min(s.readTimeout, 10*time.Second),
		ReadTimeout:       s.readTimeout,
		WriteTimeout:      s.writeTimeout,
		IdleTimeout:       s.idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
	}
	logger.Info().Str("addr", ln.Addr().String()).Msgf("listening on http://%s", ln.Addr())

	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	logger.Info().Dur("timeout", s.shutdownTimeout).Msg("shutting down: finishing in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info().Msg("stopped")
	return nil
}
