package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/errcode"
)

// testConcurrency creates 100 articles from 10 goroutines, one user each,
// and then deletes one of the users.
func testConcurrency(t *testing.T, newStore func(t *testing.T) Store) {
	const writers, perWriter = 10, 10
	ctx := context.Background()
	s := newStore(t)
	seed := addUser(t, s, "seed")
	addArticle(t, s, articles.NewArticle{UserID: seed, Title: "seed", Body: "b", Published: true, CreatedAt: base})
	before := total(t, s)

	users := make([]int64, writers)
	for i := range users {
		users[i] = addUser(t, s, fmt.Sprintf("writer%d", i))
	}
	created := make([][]articles.Article, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				in := articles.NewArticle{
					UserID:    users[w],
					Title:     fmt.Sprintf("writer %d article %d", w, i),
					Body:      "b",
					Published: true,
					CreatedAt: at(w*perWriter + i),
				}
				a, err := s.CreateArticle(ctx, in)
				if err != nil {
					errs[w] = fmt.Errorf("CreateArticle(%+v): %w", in, err)
					return
				}
				if a.UserID != users[w] || a.Author.ID != users[w] || a.Title != in.Title {
					errs[w] = fmt.Errorf("CreateArticle(%+v) = %+v, wrong user or title", in, a)
					return
				}
				created[w] = append(created[w], a)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	seen := make(map[int64]bool)
	for _, as := range created {
		for _, a := range as {
			if seen[a.ID] {
				t.Errorf("id %d was handed out twice", a.ID)
			}
			seen[a.ID] = true
		}
	}
	if got, want := total(t, s), before+writers*perWriter; got != want {
		t.Errorf("after %d concurrent creates the total is %d, want %d", writers*perWriter, got, want)
	}

	if err := s.DeleteUser(ctx, users[0]); err != nil {
		t.Fatalf("DeleteUser error: %v", err)
	}
	if got, want := total(t, s), before+(writers-1)*perWriter; got != want {
		t.Errorf("after deleting a writer the total is %d, want %d", got, want)
	}
	for _, a := range created[0] {
		if _, err := s.FindPublished(ctx, a.ID); !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("FindPublished(%d) of the deleted writer's article error = %v, want ErrNotFound", a.ID, err)
		}
	}
	if _, err := s.FindPublished(ctx, created[1][0].ID); err != nil {
		t.Errorf("FindPublished(%d) of another writer's article error = %v, want nil", created[1][0].ID, err)
	}
}

// testQueryCount checks that a list costs at most MaxListQueries
// statements whatever the page size, with more than 100 published
// articles by several authors.
func testQueryCount(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	counter, ok := s.(QueryCounter)
	if !ok {
		t.Skip("the store does not implement QueryCounter")
	}
	list := func(limit int, offset int64) (articles.Page, int64) {
		t.Helper()
		before := counter.Queries()
		p, err := listPage(ctx, s, limit, offset)
		if err != nil {
			t.Fatalf("ListPublished(%d, %d) error: %v", limit, offset, err)
		}
		return p, counter.Queries() - before
	}

	if _, n := list(15, 0); n > MaxListQueries {
		t.Errorf("listing an empty store cost %d queries, want at most %d", n, MaxListQueries)
	}

	const authors, published, drafts = 4, 120, 10
	names := make(map[int64]string)
	var users []int64
	for i := range authors {
		id := addUser(t, s, fmt.Sprintf("author%d", i))
		users = append(users, id)
		names[id] = fmt.Sprintf("author%d", i)
	}
	for i := range published + drafts {
		addArticle(t, s, articles.NewArticle{
			UserID:    users[i%authors],
			Title:     fmt.Sprintf("article %d", i),
			Body:      "b",
			Published: i < published,
			CreatedAt: at(i),
		})
	}

	for _, c := range []struct {
		limit  int
		offset int64
		want   int
	}{
		{limit: 1, offset: 0, want: 1},
		{limit: 15, offset: 0, want: 15},
		{limit: 15, offset: 105, want: 15},
		{limit: 100, offset: 0, want: 100},
		{limit: 100, offset: 100, want: 20},
		{limit: 100, offset: 500, want: 0},
	} {
		p, n := list(c.limit, c.offset)
		if n > MaxListQueries {
			t.Errorf("ListPublished(%d, %d) cost %d queries, want at most %d", c.limit, c.offset, n, MaxListQueries)
		}
		if len(p.Articles) != c.want || p.Total != published {
			t.Errorf("ListPublished(%d, %d) = %d articles of %d, want %d of %d", c.limit, c.offset, len(p.Articles), p.Total, c.want, published)
		}
		authorsSeen := make(map[int64]bool)
		for _, a := range p.Articles {
			if a.Author.ID != a.UserID || a.Author.Name != names[a.UserID] {
				t.Errorf("ListPublished(%d, %d): article %d by user %d has author %+v, want name %q",
					c.limit, c.offset, a.ID, a.UserID, a.Author, names[a.UserID])
			}
			authorsSeen[a.UserID] = true
		}
		if c.want >= authors && len(authorsSeen) != authors {
			t.Errorf("ListPublished(%d, %d) has articles by %d authors, want %d", c.limit, c.offset, len(authorsSeen), authors)
		}
		t.Logf("ListPublished(%d, %d): %d queries", c.limit, c.offset, n)
	}
}

// testMigrate migrates an up-to-date store again.
func testMigrate(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	m, ok := s.(Migrator)
	if !ok {
		t.Skip("the store does not implement Migrator")
	}
	ada := addUser(t, s, "ada")
	a := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true, CreatedAt: base})
	for range 2 {
		if err := m.Migrate(ctx); err != nil {
			t.Fatalf("Migrate on an up-to-date store error: %v", err)
		}
	}
	got, err := s.FindPublished(ctx, a.ID)
	if err != nil {
		t.Fatalf("FindPublished after Migrate error: %v", err)
	}
	if diff := sameArticle(got, a); diff != "" {
		t.Errorf("FindPublished after Migrate: %s", diff)
	}
}
