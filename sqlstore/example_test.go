package sqlstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Example opens a SQLite file (postgres.Open works the same way), creates
// the tables of users and articles only, and uses the two stores the
// database's Store returns: a user, an article of theirs, and the list of
// published articles.
func Example() {
	dir, err := os.MkdirTemp("", "sqlstore-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.UsersSchema, sqlstore.ArticlesSchema}); err != nil {
		log.Fatal(err)
	}

	var users *sqlstore.Users = db.Users()       // an auth.UserStore
	var store *sqlstore.Articles = db.Articles() // an articles.Store
	ada, err := users.CreateUser(ctx, "Ada", "ada@example.com", []byte("a bcrypt hash"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := store.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "Notes", Body: "Text", Published: true}); err != nil {
		log.Fatal(err)
	}
	var page articles.Page
	if err := store.ListPublished(ctx, 10, 0, &page); err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Total, page.Articles[0].Title, "by", page.Articles[0].Author.Name)
	// Output:
	// 1 Notes by Ada
}
