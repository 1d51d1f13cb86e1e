package articles_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/reqlog"
)

// uniqueTitles is an application's own migration script: one title per
// article. The stores know nothing of it, so they return the driver's
// error when it is broken.
const uniqueTitles = "CREATE UNIQUE INDEX IF NOT EXISTS articles_title_unique ON articles (title)"

// isUniqueViolation reports whether err, from either store, is the
// database's refusal of a duplicate in a unique index.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		return sqliteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
	}
	return false
}

// mapTitleTaken is the Map hook of an application with uniqueTitles.
func mapTitleTaken(_ context.Context, err error) error {
	if !isUniqueViolation(err) {
		return err
	}
	e := errcode.ValidationFailed("", map[string][]string{"title": {"The title has already been taken."}})
	e.Err = err
	return e
}

// reportLog records the calls of a Report hook.
type reportLog struct {
	mu  sync.Mutex
	got []apierror.Report
}

func (l *reportLog) report(_ context.Context, r apierror.Report) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, r)
}

// take returns the reports made so far and forgets them.
func (l *reportLog) take() []apierror.Report {
	l.mu.Lock()
	defer l.mu.Unlock()
	got := l.got
	l.got = nil
	return got
}

// TestErrorHooks: the Hooks of Config.Presenter turn a store's domain error (a real
// unique violation of the database) into a 422, and has an unexpected
// store failure reported once, with the request id.
func TestErrorHooks(t *testing.T) {
	for _, o := range storeOpeners {
		t.Run(o.name, func(t *testing.T) {
			s, c := o.open(t)
			if err := s.(storetest.Migrator).Migrate(context.Background(), uniqueTitles); err != nil {
				t.Fatalf("Migrate with the application's script: %v", err)
			}
			var reports reportLog
			e := newEnv(t, s, c, articles.Config{Presenter: apierror.Presenter{Hooks: apierror.Hooks{Map: mapTitleTaken, Report: reports.report}}})
			// reqlog outermost, as in a real server, for the request id.
			srv := httptest.NewServer(reqlog.Handler(slog.New(slog.DiscardHandler))(e.srv.Config.Handler))
			t.Cleanup(srv.Close)
			e.srv = srv

			_, ada := e.user("Ada")
			first := e.do(request{method: "POST", path: "/api/articles", token: ada, body: `{"title":"Hello","body":"One","published":true}`})
			id := idOf(t, first.body)

			// The driver's unique violation, mapped: a 422 on the title,
			// its cause logged at info level, nothing reported.
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: `{"title":"Hello","body":"Two"}`})
			expect(t, "POST a duplicate title", got, http.StatusUnprocessableEntity,
				`{"message":"The title has already been taken.","errors":{"title":["The title has already been taken."]}}`)
			logs := e.logs.String()
			if !strings.Contains(logs, `"level":"info"`) || !strings.Contains(logs, "creating an article") || strings.Contains(logs, `"level":"error"`) {
				t.Errorf("log = %s, want the store's error at info level only", logs)
			}

			// Known errors are not reported.
			expect(t, "GET a missing article", e.do(request{method: "GET", path: "/api/articles/999999"}), http.StatusNotFound, notFound)
			if r := reports.take(); len(r) != 0 {
				t.Fatalf("Report called for known errors: %+v", r)
			}

			// The table disappears under the store: an unexpected failure,
			// masked, logged and reported once.
			if err := s.(storetest.Migrator).Migrate(context.Background(), "ALTER TABLE articles RENAME TO articles_moved"); err != nil {
				t.Fatalf("moving the table away: %v", err)
			}
			e.logs.Reset()
			got = e.do(request{method: "GET", path: "/api/articles/" + strconv.FormatInt(id, 10)})
			expect(t, "GET with the table gone", got, http.StatusInternalServerError, `{"message":"Internal server error."}`)
			r := reports.take()
			if len(r) != 1 {
				t.Fatalf("Report called %d times, want once: %+v", len(r), r)
			}
			rep := r[0]
			if rep.Code != errcode.CodeInternal || rep.Status != 500 || rep.Path != nil || rep.Stack != nil {
				t.Errorf("Report = %+v, want INTERNAL_SERVER_ERROR, 500, no path, no stack", rep)
			}
			if want := got.header.Get(reqlog.Header); want == "" || rep.RequestID != want {
				t.Errorf("Report.RequestID = %q, want the response's %s %q", rep.RequestID, reqlog.Header, want)
			}
			if rep.Err == nil || !strings.Contains(rep.Err.Error(), "articles") || isUniqueViolation(rep.Err) {
				t.Errorf("Report.Err = %v, want the store's error", rep.Err)
			}
			if n := strings.Count(e.logs.String(), `"level":"error"`); n != 1 {
				t.Errorf("logged %d error lines, want 1: %s", n, e.logs)
			}
		})
	}
}
