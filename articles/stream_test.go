package articles_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// bigPage stores n published articles of Ada's with 4 KiB bodies, newest
// last, and returns the "data" array of a page of all of them, newest
// first.
func bigPage(t *testing.T, s storetest.Store, n int) string {
	t.Helper()
	ctx := context.Background()
	ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]string, n)
	for i := range n {
		created := now.Add(time.Duration(i) * time.Second)
		body := strings.Repeat(strconv.Itoa(i%10), 4<<10)
		a, err := s.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: fmt.Sprintf("No. %d", i), Body: body, Published: true, CreatedAt: created})
		if err != nil {
			t.Fatal(err)
		}
		rows[n-1-i] = articleJSON(a.ID, ada, fmt.Sprintf(`"No. %d"`, i), `"`+body+`"`, true, created.UTC().Format(articles.TimeFormat), `"Ada"`)
	}
	return "[" + strings.Join(rows, ",") + "]"
}

// TestListLargePageStreams: a page larger than the handler gathers (32
// KiB) is sent as it is read, without a Content-Length, and is the same
// bytes; a small one keeps its Content-Length.
func TestListLargePageStreams(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		data := bigPage(t, e.store, 40) // 40 articles of 4 KiB
		p := e.srv.URL + "/api/articles"
		got := e.do(request{method: "GET", path: "/api/articles?per_page=100"})
		expect(t, "a 160 KiB page", got, http.StatusOK, `{"data":`+data+`,"links":{"first":"`+p+`?page=1&per_page=100","last":"`+p+`?page=1&per_page=100","prev":null,"next":null},`+
			`"meta":{"current_page":1,"from":1,"last_page":1,"path":"`+p+`","per_page":100,"to":40,"total":40}}`)
		if cl := got.header.Get("Content-Length"); cl != "" {
			t.Errorf("a 160 KiB page: Content-Length = %q, want none (streamed)", cl)
		}
		small := e.do(request{method: "GET", path: "/api/articles?per_page=2&page=3"})
		if cl := small.header.Get("Content-Length"); small.status != http.StatusOK || cl != strconv.Itoa(len(small.body)) {
			t.Errorf("a small page: status %d, Content-Length %q, want 200 and %d", small.status, cl, len(small.body))
		}
	})
}

// breakingStore fails its lists after `after` articles, as a database
// whose connection breaks halfway through a page would.
type breakingStore struct {
	articles.Store
	after int
}

var errBroken = errors.New("connection to the database lost")

func (s *breakingStore) ListPublished(ctx context.Context, limit int, offset int64, yield func(articles.Article) error) (int64, error) {
	n := 0
	return s.Store.ListPublished(ctx, limit, offset, func(a articles.Article) error {
		if n == s.after {
			return errBroken
		}
		n++
		return yield(a)
	})
}

// TestListFailsMidway: a store failure while the answer is still gathered
// is a masked 500 like any other; once part of it has been sent the status
// cannot change, so the response is aborted (the client sees a broken
// body, never a short one that looks whole) and the cause logged once.
func TestListFailsMidway(t *testing.T) {
	store, _ := testdb.SQLite(t)
	bigPage(t, store, 40)
	bs := &breakingStore{Store: store}
	srv, logs, _ := serveLikeExample(t, bs)
	e := &env{t: t, srv: srv}

	bs.after = 2 // 8 KiB gathered, nothing sent
	got := e.do(request{method: "GET", path: "/api/articles?per_page=100"})
	expect(t, "failure before anything was sent", got, http.StatusInternalServerError, `{"message":"Internal server error."}`)

	bs.after = 30 // 120 KiB: sent in part
	res, err := srv.Client().Get(srv.URL + "/api/articles?per_page=100")
	if err != nil {
		t.Fatalf("GET error: %v", err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || err == nil {
		t.Errorf("failure after part was sent: status %d, %d bytes, read error %v; want 200 and a broken body", res.StatusCode, len(body), err)
	}
	if !strings.HasPrefix(string(body), `{"data":[{"id":`) || len(body) < 32<<10 {
		t.Errorf("failure after part was sent: %d bytes came, want the first 32 KiB or more of the page", len(body))
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

	bs.after = 1000
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

// countingStore counts the articles its lists read.
type countingStore struct {
	articles.Store
	read int
}

func (s *countingStore) ListPublished(ctx context.Context, limit int, offset int64, yield func(articles.Article) error) (int64, error) {
	return s.Store.ListPublished(ctx, limit, offset, func(a articles.Article) error {
		s.read++
		return yield(a)
	})
}

// TestListClientGone: when the client's connection fails halfway, the
// list stops reading, the response is aborted, and the event is logged at
// info level (it is no server error).
func TestListClientGone(t *testing.T) {
	store, _ := testdb.SQLite(t)
	bigPage(t, store, 40)
	cs := &countingStore{Store: store}
	var logs strings.Builder
	logger := zerolog.New(&logs)
	h, err := articles.NewHandler(cs, articles.Config{Logger: &logger})
	if err != nil {
		t.Fatal(err)
	}
	w := &goneWriter{header: http.Header{}}
	func() {
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler", v)
			}
		}()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/articles?per_page=100", nil))
	}()
	if w.writes != 2 || cs.read >= 40 {
		t.Errorf("%d writes, %d articles read; want 2 writes and the list stopped before its 40 articles", w.writes, cs.read)
	}
	if line := strings.TrimSuffix(logs.String(), "\n"); !strings.Contains(line, `"level":"info"`) ||
		!strings.Contains(line, "broken pipe") || !strings.Contains(line, "the client went away") || strings.Contains(line, "\n") {
		t.Errorf("log = %s, want one info line about the client with the cause", line)
	}
}
