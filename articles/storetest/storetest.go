package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
)

// Store is what the suite tests: the articles and the users of one
// database.
type Store interface {
	articles.Store
	auth.UserStore
}

// QueryCounter is implemented by a store under test that can tell how many
// statements it has sent to its database so far (count them with a pgx
// QueryTracer, or a database/sql driver.Connector wrapper). When the store
// given to [Run] implements it, Run checks that a list costs at most
// [MaxListQueries] statements.
type QueryCounter interface {
	Queries() int64
}

// Migrator is implemented by a store under test that can create its
// schema. When the store given to [Run] implements it, Run checks that
// migrating an up-to-date database again changes nothing.
type Migrator interface {
	Migrate(ctx context.Context, more ...string) error
}

// MaxListQueries is the most statements one [articles.Store.ListPublished]
// call may cost, whatever its limit.
const MaxListQueries = 3

// Run tests a store implementation. newStore must return a store on an
// empty database with the schema in place, a new one for each call; Run
// calls it once per subtest. Register cleanups with t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	t.Run("Users", func(t *testing.T) { testUsers(t, newStore) })
	t.Run("Create", func(t *testing.T) { testCreate(t, newStore) })
	t.Run("Find", func(t *testing.T) { testFind(t, newStore) })
	t.Run("List", func(t *testing.T) { testList(t, newStore) })
	t.Run("ListStops", func(t *testing.T) { testListStops(t, newStore) })
	t.Run("ListSnapshot", func(t *testing.T) { testListSnapshot(t, newStore) })
	t.Run("ListFrom", func(t *testing.T) { testListFrom(t, newStore) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newStore) })
	t.Run("DeleteUser", func(t *testing.T) { testDeleteUser(t, newStore) })
	t.Run("Concurrency", func(t *testing.T) { testConcurrency(t, newStore) })
	t.Run("QueryCount", func(t *testing.T) { testQueryCount(t, newStore) })
	t.Run("Migrate", func(t *testing.T) { testMigrate(t, newStore) })
}

// RunListFrom runs the one check of [Run] on keyset pages
// ([articles.Store.ListPublishedFrom]): forward and backward, around ties
// of created_at, drafts and the ends of the list. It is for a store that
// cannot pass the whole suite, such as articles over a service's own
// table of users, whose CreateUser only needs to add a user with the name
// given (the list reads it as the author's name).
func RunListFrom(t *testing.T, newStore func(t *testing.T) Store) {
	t.Run("ListFrom", func(t *testing.T) { testListFrom(t, newStore) })
}

// base is the clock of the suite: a time with nanoseconds, away from UTC,
// that stores must keep in UTC truncated to microseconds.
var base = time.Date(2025, time.March, 4, 7, 8, 9, 123456789, time.FixedZone("CET", 3600))

// at returns base plus n seconds.
func at(n int) time.Time { return base.Add(time.Duration(n) * time.Second) }

// stored is t as a store must return it.
func stored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// addUser creates a user named name with the address name@example.com.
func addUser(t *testing.T, s Store, name string) int64 {
	t.Helper()
	id, err := s.CreateUser(context.Background(), name, name+"@example.com", []byte("hash of "+name))
	if err != nil {
		t.Fatalf("CreateUser(%q) error: %v", name, err)
	}
	if id <= 0 {
		t.Fatalf("CreateUser(%q) = %d, want a positive id", name, id)
	}
	return id
}

// addArticle creates an article and checks that the store returned it
// whole.
func addArticle(t *testing.T, s Store, in articles.NewArticle) articles.Article {
	t.Helper()
	a, err := s.CreateArticle(context.Background(), in)
	if err != nil {
		t.Fatalf("CreateArticle(%+v) error: %v", in, err)
	}
	if a.ID <= 0 || a.UserID != in.UserID || a.Author.ID != in.UserID || a.Title != in.Title ||
		a.Body != in.Body || a.Published != in.Published {
		t.Fatalf("CreateArticle(%+v) = %+v, which does not match", in, a)
	}
	return a
}

// sameArticle reports how got differs from want, or "" when it does not.
// Times are compared as instants and must be in UTC.
func sameArticle(got, want articles.Article) string {
	switch {
	case got.ID != want.ID, got.UserID != want.UserID, got.Title != want.Title, got.Body != want.Body,
		got.Published != want.Published, got.Author != want.Author:
		return fmt.Sprintf("got %+v, want %+v", got, want)
	case !got.CreatedAt.Equal(want.CreatedAt), !got.UpdatedAt.Equal(want.UpdatedAt):
		return fmt.Sprintf("got times %v and %v, want %v and %v", got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt)
	case got.CreatedAt.Location() != time.UTC, got.UpdatedAt.Location() != time.UTC:
		return fmt.Sprintf("got times in %v and %v, want UTC", got.CreatedAt.Location(), got.UpdatedAt.Location())
	}
	return ""
}

// ids returns the ids of a list of articles.
func ids(as []articles.Article) []int64 {
	out := make([]int64, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

// total returns the number of published articles.
func total(t *testing.T, s Store) int64 {
	t.Helper()
	p, err := listPage(context.Background(), s, 1, 0)
	if err != nil {
		t.Fatalf("ListPublished error: %v", err)
	}
	return p.Total
}
