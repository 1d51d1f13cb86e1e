package articles_test

// Faults: a store that panics, and a client that goes away while its
// query runs. The handler is mounted as the example server mounts it:
// reqlog outermost, then presenter.Recover; GET bare, the other methods
// behind verifier.Optional.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/reqlog"
)

// serveLikeExample serves store on a loopback server, mounted the way the
// example server mounts it, and returns the server, its log and a counter
// of the connections it accepted.
func serveLikeExample(t *testing.T, store articles.Store) (*httptest.Server, *logbuf.Buffer, *atomic.Int32) {
	t.Helper()
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	presenter := apierror.Presenter{Logger: logger}
	h, err := articles.NewHandler(store, articles.Config{Presenter: apierror.Presenter{Logger: logger}})
	if err != nil {
		t.Fatalf("NewHandler error: %v", err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier error: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /api/articles", presenter.Recover(h))
	mux.Handle("GET /api/articles/", presenter.Recover(h))
	mux.Handle("/api/articles", presenter.Recover(verifier.Optional(h)))
	mux.Handle("/api/articles/", presenter.Recover(verifier.Optional(h)))
	srv := httptest.NewUnstartedServer(reqlog.Handler(logger)(mux))
	conns := new(atomic.Int32)
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, logs, conns
}

// panickingStore panics in every Store method while armed.
type panickingStore struct {
	articles.Store
	armed atomic.Bool
}

// panicValue is what the store panics with; clients must never see it.
const panicValue = "store bug: index 7 out of range [with length 3]"

func (s *panickingStore) check() {
	if s.armed.Load() {
		panic(panicValue)
	}
}

func (s *panickingStore) ListPublished(ctx context.Context, limit int, offset int64, page *articles.Page) error {
	s.check()
	return s.Store.ListPublished(ctx, limit, offset, page)
}

func (s *panickingStore) FindPublished(ctx context.Context, id int64) (articles.Article, error) {
	s.check()
	return s.Store.FindPublished(ctx, id)
}

func (s *panickingStore) CreateArticle(ctx context.Context, in articles.NewArticle) (articles.Article, error) {
	s.check()
	return s.Store.CreateArticle(ctx, in)
}

func (s *panickingStore) DeleteArticle(ctx context.Context, id, userID int64) error {
	s.check()
	return s.Store.DeleteArticle(ctx, id, userID)
}

// TestPanicInHandler: a panic in the store, under any route, is a masked
// 500 logged once with its stack, and the next request is served on the
// same connection.
func TestPanicInHandler(t *testing.T) {
	store, _ := sqliteStore(t)
	ctx := context.Background()
	ada, err := store.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	kept, err := store.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "Kept", Body: "Text", Published: true})
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := issuer.Issue(ada)
	if err != nil {
		t.Fatal(err)
	}
	ps := &panickingStore{Store: store}
	srv, logs, conns := serveLikeExample(t, ps)
	e := &env{t: t, srv: srv}
	show := "/api/articles/" + strconv.FormatInt(kept.ID, 10)

	tests := []struct {
		name       string
		req        request
		wantStatus int // once the store works again
	}{
		{name: "list", req: request{method: http.MethodGet, path: "/api/articles"}, wantStatus: http.StatusOK},
		{name: "show", req: request{method: http.MethodGet, path: show}, wantStatus: http.StatusOK},
		{name: "create", req: request{method: http.MethodPost, path: "/api/articles", token: token,
			body: `{"title":"After the panic","body":"Text","published":true}`}, wantStatus: http.StatusCreated},
		{name: "delete", req: request{method: http.MethodDelete, path: show, token: token}, wantStatus: http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.t = t
			ps.armed.Store(true)
			got := e.do(tt.req)
			expect(t, "while the store panics", got, http.StatusInternalServerError, `{"message":"Internal server error."}`)
			ps.armed.Store(false)
			if got := e.do(tt.req); got.status != tt.wantStatus {
				t.Errorf("the next request: status = %d, want %d (body %s)", got.status, tt.wantStatus, got.body)
			}
		})
	}

	// One line per panic, at error level, with the value, the stack and the
	// request id; and a 500 access line for each.
	var panics int
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(line, `"panic"`) && strings.Contains(line, `"stack"`) {
			panics++
			for _, want := range []string{`"level":"error"`, `"panic":"` + panicValue + `"`, `"request_id":"`, "panickingStore"} {
				if !strings.Contains(line, want) {
					t.Errorf("panic log line lacks %s:\n%s", want, line)
				}
			}
		}
	}
	if panics != len(tests) {
		t.Errorf("panic log lines: got %d, want %d; log:\n%s", panics, len(tests), logs.String())
	}
	var access500 int
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(line, `"message":"request"`) && strings.Contains(line, `"status":500`) {
			access500++
		}
	}
	if access500 != len(tests) {
		t.Errorf("access lines with status 500: got %d, want %d", access500, len(tests))
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("connections: got %d, want 1 (a panic must not cost the connection)", n)
	}
}

// sleepingStore lists articles by sleeping in PostgreSQL for 30 seconds,
// with the request's context, and reports how the query ended.
type sleepingStore struct {
	articles.Store
	pool  *pgxpool.Pool
	ended chan error // the context's error when the query returned
}

func (s *sleepingStore) ListPublished(ctx context.Context, _ int, _ int64, _ *articles.Page) error {
	_, err := s.pool.Exec(ctx, "SELECT pg_sleep(30)")
	s.ended <- ctx.Err()
	return err
}

// TestClientDisconnectCancelsQuery: when the client goes away, the request's
// context is cancelled and so is its query in PostgreSQL. The pool's
// connections carry an application_name of their own, so that only this
// test's sessions are looked at in pg_stat_activity.
func TestClientDisconnectCancelsQuery(t *testing.T) {
	base := os.Getenv(testdb.EnvDatabaseURL)
	if base == "" {
		t.Skip(testdb.EnvDatabaseURL + " is not set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	random := make([]byte, 6)
	_, _ = rand.Read(random)
	appName := "gqlkit_fault_" + hex.EncodeToString(random)

	cfg, err := pgxpool.ParseConfig(base)
	if err != nil {
		t.Fatalf("%s: %v", testdb.EnvDatabaseURL, err)
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = appName
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("%s is set but unusable: %v", testdb.EnvDatabaseURL, err)
	}
	defer pool.Close()
	if err := pool.Ping(ctx); err != nil {
		t.Fatalf("%s is set but the database is unreachable: %v", testdb.EnvDatabaseURL, err)
	}
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("%s is set but the database is unreachable: %v", testdb.EnvDatabaseURL, err)
	}
	defer admin.Close(context.Background())
	sleeping := func() int {
		t.Helper()
		var n int
		err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE application_name = $1 AND state = 'active' AND query LIKE '%pg_sleep%'`, appName).Scan(&n)
		if err != nil {
			t.Fatalf("reading pg_stat_activity: %v", err)
		}
		return n
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not happen within 10s", what)
			}
		}
	}

	store := &sleepingStore{pool: pool, ended: make(chan error, 1)}
	srv, logs, _ := serveLikeExample(t, store)

	reqCtx, disconnect := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, srv.URL+"/api/articles", nil)
	if err != nil {
		t.Fatal(err)
	}
	clientErr := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		clientErr <- err
	}()
	waitFor("pg_sleep running for the request", func() bool { return sleeping() == 1 })
	disconnect()
	if err := <-clientErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request: got error %v, want context.Canceled", err)
	}

	select {
	case ctxErr := <-store.ended:
		if ctxErr == nil {
			t.Errorf("the query returned with its context still live")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the query still runs 5s after the client went away")
	}
	waitFor("the end of pg_sleep in pg_stat_activity", func() bool { return sleeping() == 0 })
	// The cancelled request is logged with its cause. (How loudly is not
	// asserted: today it is an error-level 500, which no client received.)
	waitFor("the access line of the cancelled request", func() bool { return strings.Contains(logs.String(), `"path":"/api/articles"`) })
	if !strings.Contains(logs.String(), "context canceled") {
		t.Errorf("the log does not tell that the request was cancelled:\n%s", logs.String())
	}
}
