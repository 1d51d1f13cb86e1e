package articles_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	apierror "github.com/gqlkit/gqlkit/errors"
)

// bigPage stores n published articles of Ada's with 4 KiB bodies, newest
// last, and returns the "data" array of a page of all of them, newest
// first.
func bigPage(t *testing.T, s storetest.Store, n int) string {
	t.Helper()
	return "[" + strings.Join(stored(t, s, n, 4<<10), ",") + "]"
}

// stored stores n published articles of Ada's with bodies of size bytes,
// newest last, and returns their JSON, newest first.
func stored(t *testing.T, s storetest.Store, n, size int) []string {
	t.Helper()
	ctx := context.Background()
	ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]string, n)
	for i := range n {
		created := now.Add(time.Duration(i) * time.Second)
		body := strings.Repeat(strconv.Itoa(i%10), size)
		a, err := s.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: fmt.Sprintf("No. %d", i), Body: body, Published: true, CreatedAt: created})
		if err != nil {
			t.Fatal(err)
		}
		rows[n-1-i] = articleJSON(a.ID, ada, fmt.Sprintf(`"No. %d"`, i), `"`+body+`"`, true, created.UTC().Format(articles.TimeFormat), `"Ada"`)
	}
	return rows
}

// TestListLargePage: a page far larger than a first share of the budget
// (256 KiB), 100 articles of 4 KiB and 40 of 64 KiB, is the same bytes,
// sent whole with its Content-Length, as a small one.
func TestListLargePage(t *testing.T) {
	for _, c := range []struct{ n, size int }{{100, 4 << 10}, {40, 64 << 10}} {
		t.Run(fmt.Sprintf("%dx%d", c.n, c.size), func(t *testing.T) {
			forEachStore(t, func(t *testing.T, e *env) {
				data := "[" + strings.Join(stored(t, e.store, c.n, c.size), ",") + "]"
				p := e.srv.URL + "/api/articles"
				got := e.do(request{method: "GET", path: "/api/articles?per_page=100"})
				expect(t, fmt.Sprintf("a page of %d articles of %d bytes", c.n, c.size), got, http.StatusOK, `{"data":`+data+`,"links":{"first":"`+p+`?page=1&per_page=100","last":"`+p+`?page=1&per_page=100","prev":null,"next":null},`+
					`"meta":{"current_page":1,"from":1,"last_page":1,"path":"`+p+`","per_page":100,"to":`+strconv.Itoa(c.n)+`,"total":`+strconv.Itoa(c.n)+`}}`)
				if cl := got.header.Get("Content-Length"); cl != strconv.Itoa(len(got.body)) {
					t.Errorf("a large page: Content-Length = %q, want %d", cl, len(got.body))
				}
				small := e.do(request{method: "GET", path: "/api/articles?per_page=2&page=3"})
				if cl := small.header.Get("Content-Length"); small.status != http.StatusOK || cl != strconv.Itoa(len(small.body)) {
					t.Errorf("a small page: status %d, Content-Length %q, want 200 and %d", small.status, cl, len(small.body))
				}
			})
		})
	}
}

// replayStore reads each page whole from its Store, then adds the articles
// to the caller's page one by one, as a store reading rows would: after
// `after` of them it fails as a database whose connection breaks halfway
// through a page would. It counts the articles it added.
type replayStore struct {
	articles.Store
	after int
	added int
}

var errBroken = errors.New("connection to the database lost")

func (s *replayStore) ListPublished(ctx context.Context, limit int, offset int64, page *articles.Page) error {
	var read articles.Page
	if err := s.Store.ListPublished(ctx, limit, offset, &read); err != nil {
		return err
	}
	for i, a := range read.Articles {
		if i == s.after {
			return fmt.Errorf("articles: listing: %w", errBroken)
		}
		if err := page.Add(a); err != nil {
			return err
		}
		s.added++
	}
	page.Total = read.Total
	return nil
}

// TestListFailsMidway: a store failure, however much of the page was read
// (8 KiB or 120 KiB), is a masked 500 like any other, since nothing is sent
// before the page is whole; the cause is logged once per failure, and the
// next list is served.
func TestListFailsMidway(t *testing.T) {
	store, _ := sqliteStore(t)
	bigPage(t, store, 40)
	rs := &replayStore{Store: store, after: 1000}
	srv, logs, _ := serveLikeExample(t, rs)
	e := &env{t: t, srv: srv}

	for _, after := range []int{2, 30} {
		rs.after = after
		got := e.do(request{method: "GET", path: "/api/articles?per_page=100"})
		expect(t, fmt.Sprintf("failure after %d articles", after), got, http.StatusInternalServerError, `{"message":"Internal server error."}`)
	}
	var lines int
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(line, errBroken.Error()) {
			lines++
			for _, want := range []string{`"level":"error"`, `"request_id":"`, `"status":500`} {
				if !strings.Contains(line, want) {
					t.Errorf("log line lacks %s:\n%s", want, line)
				}
			}
		}
	}
	if lines != 2 {
		t.Errorf("log lines with the cause: %d, want 2 (one per failure); log:\n%s", lines, logs.String())
	}

	rs.after = 1000
	if got := e.do(request{method: "GET", path: "/api/articles?per_page=1"}); got.status != http.StatusOK {
		t.Errorf("the next list: status %d, want 200", got.status)
	}
}

// goneWriter is a client that goes away after the first piece of the
// answer: its writes fail from then on.
type goneWriter struct {
	header http.Header
	writes int
}

func (w *goneWriter) Header() http.Header { return w.header }
func (w *goneWriter) WriteHeader(int)     {}
func (w *goneWriter) Write(b []byte) (int, error) {
	w.writes++
	if w.writes > 1 {
		return 0, errors.New("write: broken pipe")
	}
	return len(b), nil
}

// TestListClientGone: the page is read whole before anything is sent;
// when the client's connection then fails, the handler stops writing and
// logs the event once at info level (it is no server error).
func TestListClientGone(t *testing.T) {
	store, _ := sqliteStore(t)
	data := bigPage(t, store, 40)
	p := "http://example.com/api/articles"
	body := `{"data":` + data + `,"links":{"first":"` + p + `?page=1&per_page=100","last":"` + p + `?page=1&per_page=100","prev":null,"next":null},` +
		`"meta":{"current_page":1,"from":1,"last_page":1,"path":"` + p + `","per_page":100,"to":40,"total":40}}`
	rs := &replayStore{Store: store, after: 1000}
	var logs strings.Builder
	logger := logbuf.Logger(&logs)
	h, err := articles.NewHandler(rs, articles.Config{Presenter: apierror.Presenter{Logger: logger}})
	if err != nil {
		t.Fatal(err)
	}
	w := &goneWriter{header: http.Header{}}
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/articles?per_page=100", nil))
	if w.writes != 2 || rs.added != 40 {
		t.Errorf("%d writes, %d articles read; want 2 writes, after the 40 articles were read", w.writes, rs.added)
	}
	if cl := w.header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
		t.Errorf("Content-Length = %q, want the whole page's, %d", cl, len(body))
	}
	if line := strings.TrimSuffix(logs.String(), "\n"); !strings.Contains(line, `"level":"info"`) ||
		!strings.Contains(line, "broken pipe") || !strings.Contains(line, "did not take its answer") || strings.Contains(line, "\n") {
		t.Errorf("log = %s, want one info line about the client with the cause", line)
	}
}
