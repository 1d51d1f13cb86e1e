package articles_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// lockstep is a cyclic barrier whose parties may leave: each list adds its
// i-th article once every list still running has added its (i-1)-th.
type lockstep struct {
	mu                      sync.Mutex
	cond                    *sync.Cond
	parties, arrived, round int
}

func newLockstep(n int) *lockstep {
	l := &lockstep{parties: n}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *lockstep) await() {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.round
	if l.arrived++; l.arrived >= l.parties {
		l.arrived, l.round = 0, l.round+1
		l.cond.Broadcast()
		return
	}
	for r == l.round {
		l.cond.Wait()
	}
}

func (l *lockstep) leave() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.parties--; l.parties > 0 && l.arrived >= l.parties {
		l.arrived, l.round = 0, l.round+1
		l.cond.Broadcast()
	}
}

// syntheticStore lists n articles of size bytes, in lockstep with the
// other lists when step is set. A list whose Add is refused takes
// closeDelay, or until closed is closed (when set; it says so on refused
// first), to return, as pgx's rows.Close does while it reads the rest of
// a result.
type syntheticStore struct {
	failingStore
	n, size    int
	step       *lockstep
	closeDelay time.Duration
	refused    chan<- struct{}
	closed     <-chan struct{}
}

func (s *syntheticStore) ListPublished(ctx context.Context, limit int, offset int64, page *articles.Page) error {
	step := s.step // nil once this list has left the lockstep
	defer func() {
		if step != nil {
			step.leave()
		}
	}()
	body := strings.Repeat("b", s.size)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range min(limit, s.n) {
		if step != nil {
			step.await()
		}
		a := articles.Article{ID: int64(i + 1), UserID: 1, Title: "t", Body: body, Published: true,
			CreatedAt: now, UpdatedAt: now, Author: articles.Author{ID: 1, Name: "A"}}
		if err := page.Add(a); err != nil {
			if step != nil {
				step.leave() // the others go on while this one closes
				step = nil
			}
			time.Sleep(s.closeDelay)
			if s.refused != nil {
				s.refused <- struct{}{}
				<-s.closed
			}
			return fmt.Errorf("listing: %w", err)
		}
	}
	page.Total = int64(s.n)
	return nil
}

// listAt serves GET path from h to a request from addr.
func listAt(h http.Handler, addr, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestListsGrowingTogether: 12 MB pages read at the same pace, each
// outgrowing its first share in the same round, are served as far as the
// budget holds them: one of one client's (its part is one page), three of
// eight clients' (the large lane of the default budget holds three pages
// of MaxListBytes); the others are refused at once. Before, the pages grew
// step by step: each held a part of the room and every next step was
// refused, so all were.
func TestListsGrowingTogether(t *testing.T) {
	for _, c := range []struct {
		name   string
		lists  int
		addr   func(i int) string
		served int
	}{
		{name: "one client", lists: 4, addr: func(int) string { return "192.0.2.9:1000" }, served: 1},
		{name: "eight clients", lists: 8, addr: func(i int) string { return fmt.Sprintf("192.0.2.%d:1000", 10+i) }, served: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := &syntheticStore{n: 30, size: 400_000, step: newLockstep(c.lists), closeDelay: 200 * time.Millisecond}
			h, err := articles.NewHandler(store, articles.Config{BaseURL: "http://x"}) // 64 MiB, 16 MiB a page
			if err != nil {
				t.Fatal(err)
			}
			statuses := make([]int, c.lists)
			var wg sync.WaitGroup
			for i := range c.lists {
				wg.Go(func() { statuses[i] = listAt(h, c.addr(i), "/api/articles?per_page=30").Code })
			}
			wg.Wait()
			ok, busy := 0, 0
			for _, s := range statuses {
				switch s {
				case http.StatusOK:
					ok++
				case http.StatusServiceUnavailable:
					busy++
				}
			}
			if ok != c.served || busy != c.lists-c.served {
				t.Errorf("%d lists of 12 MB at once: %v; want %d served and the others 503", c.lists, statuses, c.served)
			}
		})
	}
}

// TestListRefusedHoldsNothing: a list refused while the store still reads
// (its rows closing) holds nothing of the budget meanwhile: with one first
// share in the whole budget, another client's list is served at once.
// Before, the refused list kept its share until the store returned and
// the refusal was written.
func TestListRefusedHoldsNothing(t *testing.T) {
	refused, closed := make(chan struct{}), make(chan struct{})
	store := &syntheticStore{n: 3, size: 100_000, refused: refused, closed: closed}
	// 1 MiB: a first lane of one first share of 200,000 bytes.
	h, err := articles.NewHandler(store, articles.Config{BaseURL: "http://x", ResponseBudget: 1 << 20, MaxListBytes: 200_000,
		ResponseBudgetWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tooLarge := make(chan *httptest.ResponseRecorder, 1)
	go func() { tooLarge <- listAt(h, "192.0.2.1:1", "/api/articles?per_page=3") }()
	<-refused // the store is closing its rows
	rec := listAt(h, "192.0.2.2:1", "/api/articles?per_page=1")
	if rec.Code != http.StatusOK {
		t.Errorf("another client's list while a refused one closes its rows: %d %.100s; want 200", rec.Code, rec.Body)
	}
	close(closed)
	if rec := <-tooLarge; rec.Code != http.StatusBadRequest || rec.Body.String() != tooLargeBody {
		t.Errorf("the page over MaxListBytes: %d %.100s; want 400 %s", rec.Code, rec.Body, tooLargeBody)
	}
}
