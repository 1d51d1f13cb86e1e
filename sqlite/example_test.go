package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Example opens a SQLite file, creates the tables, and writes and reads
// through the store directly, as a handler or a job of your own would.
func Example() {
	dir, err := os.MkdirTemp("", "sqlite-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}

	ada, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("a bcrypt hash"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = store.Users().CreateUser(ctx, "Ada again", "ada@example.com", []byte("a bcrypt hash"))
	fmt.Println("same e-mail again:", errors.Is(err, auth.ErrEmailTaken))

	day := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, title := range []string{"First", "Draft", "Second"} {
		_, err := store.Articles().CreateArticle(ctx, articles.NewArticle{
			UserID: ada, Title: title, Body: "Text",
			Published: title != "Draft",
			CreatedAt: day.Add(time.Duration(i) * time.Hour),
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	var page articles.Page
	if err := store.Articles().ListPublished(ctx, 10, 0, &page); err != nil {
		log.Fatal(err)
	}
	for _, a := range page.Articles {
		fmt.Println(a.ID, a.Title, "by", a.Author.Name, a.CreatedAt.Format(time.Kitchen))
	}
	fmt.Println("published:", page.Total)
	// Output:
	// same e-mail again: true
	// 3 Second by Ada 5:04AM
	// 1 First by Ada 3:04AM
	// published: 2
}

// ExampleStore_MigrateSchemas keeps the revocations of a service whose
// users live in a table of its own (accounts): only the auth tables are
// created, and a logout everywhere of account 42 refuses its tokens.
func ExampleStore_MigrateSchemas() {
	dir, err := os.MkdirTemp("", "sqlite-schemas")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	accounts := `CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, login TEXT NOT NULL)`
	if err := store.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.AuthSchema}, accounts); err != nil {
		log.Fatal(err)
	}

	secret := []byte("an example secret of 32 bytes or more")
	cfg := auth.Config{Tokens: store.Tokens()}
	issuer, _ := auth.NewIssuer(secret, cfg)
	verifier, _ := auth.NewVerifier(auth.HMAC(secret), cfg)
	token, _ := issuer.Issue(42)
	_, err = verifier.Verify(ctx, token)
	fmt.Println("before:", err)

	// Tokens are issued in whole seconds: a cutoff one second on refuses
	// this one.
	if err := store.Tokens().RevokeUser(ctx, 42, time.Now().Add(time.Second)); err != nil {
		log.Fatal(err)
	}
	_, err = verifier.Verify(ctx, token)
	fmt.Println("after a logout everywhere:", errors.Is(err, auth.ErrRevoked))
	// Output:
	// before: <nil>
	// after a logout everywhere: true
}

// A service with a table of users of its own (members) keeps the
// articles there: their foreign key points at members, their authors'
// names come from it, and no table users is created.
func ExampleStore_ArticlesOver() {
	dir, err := os.MkdirTemp("", "sqlite-members")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()

	members := sqlstore.UsersTable{Table: "members", Name: "display_name"}
	script, err := sqlite.ArticlesMigration(members)
	if err != nil {
		log.Fatal(err)
	}
	service := `CREATE TABLE IF NOT EXISTS members (id INTEGER PRIMARY KEY, display_name TEXT NOT NULL);
INSERT OR IGNORE INTO members VALUES (7, 'Ada')`
	// The idempotency keys and the articles; not the kit's users.
	if err := store.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.IdempotencySchema}, service, script); err != nil {
		log.Fatal(err)
	}
	arts, err := store.ArticlesOver(members)
	if err != nil {
		log.Fatal(err)
	}
	a, err := arts.CreateArticle(ctx, articles.NewArticle{UserID: 7, Title: "Hello", Body: "Text", Published: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Title, "by", a.Author.Name)
	_, err = arts.CreateArticle(ctx, articles.NewArticle{UserID: 8, Title: "Ghost", Body: "Text"})
	fmt.Println(errors.Is(err, articles.ErrUnknownUser))
	_, err = store.ArticlesOver(sqlstore.UsersTable{Table: "members; DROP TABLE members"})
	fmt.Println(err)
	// Output:
	// Hello by Ada
	// true
	// sqlite: sqlstore: UsersTable.Table "members; DROP TABLE members" is not a table name (letters, digits and _, optionally schema.table)
}
