package articles_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// TestShowStalledClientCut: the answer to a show of a large article (some
// megabytes, its body escaped) is written under the stall watch like a
// list's: a client that takes none of it for StallTimeout is cut off,
// and a client that reads gets it whole. Before, it waited for the client
// until the server's WriteTimeout.
func TestShowStalledClientCut(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
	t.Parallel() // waits out the stall timeout beside TestCreateStalledClientCut
	s, _ := sqliteStore(t)
	ctx := context.Background()
	ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "Large", Body: strings.Repeat("<>", 500_000), Published: true})
	if err != nil {
		t.Fatal(err)
	}
	// 1s, not less: the client that reads at once is this process, which
	// a loaded CI host (race detector, packages tested in parallel) can
	// starve for some hundreds of milliseconds.
	addr := budgetServer(t, s, articles.Config{StallTimeout: time.Second})
	path := "/api/articles/" + strconv.FormatInt(a.ID, 10)

	status, _, whole := getFrom(t, "127.0.0.2", addr, path)
	if status != http.StatusOK || !strings.HasPrefix(whole, `{"data":{"id":`) || len(whole) < 1_000_000 {
		t.Fatalf("the show, read at once: %d, %d bytes %.80s", status, len(whole), whole)
	}
	l := getHead(t, "127.0.0.3", addr, path)
	if l.resp.StatusCode != http.StatusOK || l.resp.ContentLength != int64(len(whole)) {
		t.Fatalf("the show's head: %d, Content-Length %d; want 200 and %d", l.resp.StatusCode, l.resp.ContentLength, len(whole))
	}
	time.Sleep(5 * time.Second) // taking nothing for five stall timeouts
	if got := l.body(t); len(got) >= len(whole)-8<<10 {
		t.Errorf("a client that took nothing for 5s got %d of %d bytes: it was not cut off", len(got), len(whole))
	}
}

// TestCreateStalledClientCut: the answer to a create echoes the article,
// up to some megabytes once its body is escaped, and is written under the stall
// watch as a show's is: a client that sends a large article and takes none
// of the answer is cut off, and the article is stored all the same.
func TestCreateStalledClientCut(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
	t.Parallel() // see TestShowStalledClientCut
	s, _ := sqliteStore(t)
	ctx := context.Background()
	ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	addr := budgetServer(t, s, articles.Config{StallTimeout: 300 * time.Millisecond,
		UserID: func(context.Context) (int64, bool) { return ada, true }})
	body := `{"title":"Large","body":"` + strings.Repeat("<>", 250_000) + `","published":true}`
	conn := dialFrom(t, "127.0.0.4", addr)
	fmt.Fprintf(conn, "POST /api/articles HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		addr, len(body), body)
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 4096), nil)
	if err != nil {
		t.Fatalf("reading the head: %v", err)
	}
	if resp.StatusCode != http.StatusCreated || resp.ContentLength < 400_000 {
		t.Fatalf("the create: %d, Content-Length %d; want 201 and over 400 KB", resp.StatusCode, resp.ContentLength)
	}
	time.Sleep(3 * time.Second) // taking nothing for ten stall timeouts
	l := &listReader{conn: conn, resp: resp}
	if got := l.body(t); int64(len(got)) >= resp.ContentLength-8<<10 {
		t.Errorf("a client that took nothing for 3s got %d of %d bytes: it was not cut off", len(got), resp.ContentLength)
	}
	var page articles.Page
	if err := s.ListPublished(ctx, 10, 0, &page); err != nil || page.Total != 1 {
		t.Errorf("after the cut-off: %d articles listed (%v), want the one created", page.Total, err)
	}
}

// TestListHead: HEAD of the collection checks the paging as GET does,
// then answers 200 with the Content-Type of a list, without reading the
// page: the store is not asked, and the answer has no body and no
// Content-Length.
func TestListHead(t *testing.T) {
	broken := errors.New("the store was asked")
	addr := budgetServer(t, failingStore{err: broken}, articles.Config{})
	for _, c := range []struct {
		path   string
		status int
	}{
		{path: "/api/articles?per_page=30", status: http.StatusOK},
		{path: "/api/articles", status: http.StatusOK},
		{path: "/api/articles?per_page=101", status: http.StatusUnprocessableEntity},
		{path: "/api/articles?page=x", status: http.StatusUnprocessableEntity},
	} {
		req, err := http.NewRequest(http.MethodHead, "http://"+addr+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("HEAD %s: %d, Content-Type %q; want %d, application/json", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.status)
		}
		if c.status == http.StatusOK && resp.ContentLength != -1 {
			t.Errorf("HEAD %s: Content-Length %d; want none", c.path, resp.ContentLength)
		}
	}
}
