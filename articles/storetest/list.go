package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// listPage lists a page of s into memory; Articles is empty, not nil,
// when none came.
func listPage(ctx context.Context, s articles.Store, limit int, offset int64) (articles.Page, error) {
	p := articles.Page{Articles: []articles.Article{}}
	err := s.ListPublished(ctx, limit, offset, &p)
	return p, err
}

// testListStops checks that an error from Page.Add (a page past its
// MaxBytes) stops the list and comes back wrapped, and that the store is
// usable afterwards.
func testListStops(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	ada := addUser(t, s, "ada")
	for i := range 5 {
		addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true, CreatedAt: at(i)})
	}
	// Each article counts 5 bytes: "t", "b" and "ada". Two fit in 12.
	p := articles.Page{MaxBytes: 12}
	err := s.ListPublished(ctx, 5, 0, &p)
	if !errors.Is(err, articles.ErrPageTooLarge) {
		t.Errorf("ListPublished past Page.MaxBytes error = %v, want one wrapping ErrPageTooLarge", err)
	}
	if len(p.Articles) != 2 {
		t.Errorf("ListPublished past Page.MaxBytes added %d articles, want the 2 that fit", len(p.Articles))
	}
	// The store is still usable (its connection or transaction was given back).
	if p, err := listPage(ctx, s, 5, 0); err != nil || len(p.Articles) != 5 || p.Total != 5 {
		t.Errorf("ListPublished after a stopped list = %d articles of %d, %v; want 5 of 5", len(p.Articles), p.Total, err)
	}
}

// snapshotShapes are the pages testListSnapshot reads: a whole list
// (limit over any total it reaches), and pages at and around the end,
// which the writers move back and forth.
var snapshotShapes = []struct {
	limit  int
	offset int64
}{{100, 0}, {5, 0}, {5, 17}, {5, 19}, {5, 20}, {3, 21}, {3, 23}}

// testListSnapshot lists pages while writers add and delete published
// articles, and checks that every page is one snapshot: a page at offset o
// with limit l of a list of total t holds min(l, max(t-o, 0)) articles,
// newest first, none twice.
func testListSnapshot(t *testing.T, newStore func(t *testing.T) Store) {
	const seeded, writers, readers, listsPerReader = 20, 3, 4, 120
	ctx := context.Background()
	s := newStore(t)
	users := make([]int64, writers)
	for w := range users {
		users[w] = addUser(t, s, fmt.Sprintf("writer%d", w))
	}
	for i := range seeded {
		addArticle(t, s, articles.NewArticle{UserID: users[i%writers], Title: "seed", Body: "b", Published: true, CreatedAt: at(10 * i)})
	}

	stop := make(chan struct{})
	var writes atomic.Int64
	writeErrs := make([]error, writers)
	var wwg sync.WaitGroup
	for w := range writers {
		wwg.Go(func() { writeErrs[w] = churn(ctx, s, users[w], w, stop, &writes) })
	}
	var mu sync.Mutex
	var bad []string
	var rwg sync.WaitGroup
	for r := range readers {
		rwg.Go(func() {
			for i := range listsPerReader {
				c := snapshotShapes[(r+i)%len(snapshotShapes)]
				if msg := checkPage(ctx, s, c.limit, c.offset); msg != "" {
					mu.Lock()
					bad = append(bad, msg)
					mu.Unlock()
				}
			}
		})
	}
	rwg.Wait()
	close(stop)
	wwg.Wait()
	if err := errors.Join(writeErrs...); err != nil {
		t.Fatal(err)
	}
	if writes.Load() == 0 {
		t.Fatal("no write ran while the lists were read: the test proves nothing")
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d pages disagree with their total under %d writes; the first: %s",
			len(bad), readers*listsPerReader, writes.Load(), bad[0])
	}
}

// checkPage lists one page and says how it disagrees with its total, or
// returns "".
func checkPage(ctx context.Context, s Store, limit int, offset int64) string {
	p, err := listPage(ctx, s, limit, offset)
	if err != nil {
		return fmt.Sprintf("ListPublished(%d, %d) error: %v", limit, offset, err)
	}
	want := min(int64(limit), max(p.Total-offset, 0))
	if int64(len(p.Articles)) != want {
		return fmt.Sprintf("ListPublished(%d, %d) gave %d articles with total %d, want %d", limit, offset, len(p.Articles), p.Total, want)
	}
	for i := 1; i < len(p.Articles); i++ {
		a, b := p.Articles[i-1], p.Articles[i]
		if !a.CreatedAt.After(b.CreatedAt) && (!a.CreatedAt.Equal(b.CreatedAt) || a.ID <= b.ID) {
			return fmt.Sprintf("ListPublished(%d, %d): article %d (%v) before %d (%v), not newest first",
				limit, offset, a.ID, a.CreatedAt, b.ID, b.CreatedAt)
		}
	}
	return ""
}

// churn adds and deletes published articles of user until stop is
// closed: two creates, then two deletes, at times spread over the list
// (the newest included), so that both the total and the pages move.
func churn(ctx context.Context, s Store, user int64, w int, stop <-chan struct{}, writes *atomic.Int64) error {
	var mine []int64
	for i := 0; ; i++ {
		select {
		case <-stop:
			return nil
		default:
		}
		if i%4 < 2 {
			created := at(10*((i*7+w*3)%25) + 5).Add(time.Duration(w) * time.Microsecond)
			a, err := s.CreateArticle(ctx, articles.NewArticle{UserID: user, Title: "churn", Body: "b", Published: true, CreatedAt: created})
			if err != nil {
				return fmt.Errorf("writer %d: CreateArticle error: %w", w, err)
			}
			mine = append(mine, a.ID)
		} else {
			id := mine[len(mine)-1]
			mine = mine[:len(mine)-1]
			if err := s.DeleteArticle(ctx, id, user); err != nil {
				return fmt.Errorf("writer %d: DeleteArticle(%d) error: %w", w, id, err)
			}
		}
		writes.Add(1)
	}
}
