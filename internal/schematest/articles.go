package schematest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// ArticlesStore is the Store of postgres or sqlite, for articles over a
// table of users of the service's own.
type ArticlesStore interface {
	MigrateSchemas(ctx context.Context, schemas []sqlstore.Schema, more ...string) error
	ArticlesOver(t sqlstore.UsersTable) (*sqlstore.Articles, error)
}

// Members is the table of users of the service in ArticlesOverMembers.
var Members = sqlstore.UsersTable{Table: "members", Name: "display_name"}

// ArticlesOverMembers migrates the idempotency keys and the articles
// over the table members of a service (created, with a table accounts of
// UUIDs beside it, by the script service, which inserts the members 1 Ada
// and 2 Bob), twice, with the script of migration (the database's
// ArticlesMigration), and checks that no table users was made (users
// reports whether there is one), that the articles read their authors
// from members, that the foreign key holds, and that identifiers that are
// not plain names are refused.
func ArticlesOverMembers(t *testing.T, s ArticlesStore, service string, migration func(sqlstore.UsersTable) (string, error), users func() bool) {
	ctx := context.Background()
	script, err := migration(Members)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.IdempotencySchema}, service, script); err != nil {
			t.Fatal(err)
		}
	}
	if users() {
		t.Error("migrating articles over members created a table users")
	}
	a, err := s.ArticlesOver(Members)
	if err != nil {
		t.Fatal(err)
	}
	created, err := a.CreateArticle(ctx, articles.NewArticle{UserID: 1, Title: "Hello", Body: "Text", Published: true})
	if err != nil {
		t.Fatal(err)
	}
	if created.Author != (articles.Author{ID: 1, Name: "Ada"}) {
		t.Errorf("created by %+v, want member 1, Ada", created.Author)
	}
	found, err := a.FindPublished(ctx, created.ID)
	if err != nil || found.Author.Name != "Ada" || found.Title != "Hello" {
		t.Errorf("FindPublished = %+v, %v; want Hello by Ada", found, err)
	}
	var page articles.Page
	if err := a.ListPublished(ctx, 10, 0, &page); err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || len(page.Articles) != 1 || page.Articles[0].Author.Name != "Ada" {
		t.Errorf("ListPublished = total %d, %+v; want one article by Ada", page.Total, page.Articles)
	}
	if _, err := a.CreateArticle(ctx, articles.NewArticle{UserID: 99, Title: "Ghost", Body: "Text"}); !errors.Is(err, articles.ErrUnknownUser) {
		t.Errorf("an article of no member: %v, want ErrUnknownUser (the foreign key)", err)
	}
	if err := a.DeleteArticle(ctx, created.ID, 99); !errors.Is(err, articles.ErrUnknownUser) {
		t.Errorf("a delete by no member: %v, want ErrUnknownUser", err)
	}
	if err := a.DeleteArticle(ctx, created.ID, 2); !errors.Is(err, articles.ErrNotAuthor) {
		t.Errorf("a delete by another member: %v, want ErrNotAuthor", err)
	}
	if err := a.DeleteArticle(ctx, created.ID, 1); err != nil {
		t.Errorf("a delete by the author: %v", err)
	}
	if _, err := a.FindPublished(ctx, created.ID); !errors.Is(err, errcode.ErrNotFound) {
		t.Errorf("FindPublished after the delete: %v, want ErrNotFound", err)
	}

	for _, bad := range []sqlstore.UsersTable{
		{Table: `members"; DROP TABLE members; --`},
		{Table: "members", ID: "id) ON DELETE CASCADE; DROP TABLE accounts; --"},
		{Table: "members", Name: "display_name FROM members; --"},
		{Table: "a.b.c"},
		{Table: "1members"},
		{Table: strings.Repeat("m", 64)},
		{Table: "membres\u00e9"},
	} {
		if _, err := s.ArticlesOver(bad); err == nil {
			t.Errorf("ArticlesOver(%+v): no error", bad)
		}
		if _, err := migration(bad); err == nil {
			t.Errorf("ArticlesMigration(%+v): no error", bad)
		}
	}
}

// Exec runs one statement with arguments on the database of a test.
type Exec func(ctx context.Context, query string, args ...any) error

// ListFromOverMembers runs the conformance check of keyset pages
// (storetest.RunListFrom) over the articles of the table members of a
// service: newStore returns a store on an empty database and a way to run
// statements on it; the helper migrates it as [ArticlesOverMembers] does
// and adds the suite's users as members, with ids from 100 up.
func ListFromOverMembers(t *testing.T, newStore func(t *testing.T) (ArticlesStore, Exec), service string, migration func(sqlstore.UsersTable) (string, error)) {
	storetest.RunListFrom(t, func(t *testing.T) storetest.Store {
		s, exec := newStore(t)
		script, err := migration(Members)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.MigrateSchemas(context.Background(), []sqlstore.Schema{sqlstore.IdempotencySchema}, service, script); err != nil {
			t.Fatal(err)
		}
		a, err := s.ArticlesOver(Members)
		if err != nil {
			t.Fatal(err)
		}
		return &memberStore{Articles: a, exec: exec, next: 100}
	})
}

// memberStore is the articles over members, whose users are members. Of
// auth.UserStore it implements only CreateUser: RunListFrom needs no
// more, and the other methods are nil (they panic if called).
type memberStore struct {
	*sqlstore.Articles
	auth.UserStore
	exec Exec
	next int64
}

// CreateUser adds a member named name (the address and hash are not
// kept: members have none).
func (m *memberStore) CreateUser(ctx context.Context, name, _ string, _ []byte) (int64, error) {
	id := m.next
	m.next++
	if err := m.exec(ctx, `INSERT INTO members (id, display_name) VALUES ($1, $2)`, id, name); err != nil {
		return 0, err
	}
	return id, nil
}
