package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// UsersTable names the table of users that articles reference: the
// articles' foreign key user_id points at its ID column, and the lists
// read an author's name from its Name column. The zero value is the kit's
// table users (id, name), of [UsersSchema]; a service with a users table
// of its own names it, say UsersTable{Table: "members"}.
//
// Each name is an SQL identifier of letters, digits and underscores, not
// starting with a digit, at most 63 bytes; Table may be qualified by a
// schema ("app.members"). They are written quoted, so they match the
// stored names exactly: lower case for tables created without quotes on
// PostgreSQL. Anything else is refused by [UsersTable.Validate], before
// any statement is built.
type UsersTable struct {
	// Table is the table of users; "" means users.
	Table string
	// ID is its integer key column, which articles.user_id references
	// (its primary key, or a unique column); "" means id.
	ID string
	// Name is its column of the users' display names, which the lists
	// and reads of articles return as the author's name; "" means name.
	Name string
}

// The names of the kit's table of users.
const (
	DefaultUsersTable = "users"
	DefaultUsersID    = "id"
	DefaultUsersName  = "name"
)

// maxIdentifier is the longest identifier PostgreSQL keeps whole.
const maxIdentifier = 63

// effective returns t with its defaults filled in.
func (t UsersTable) effective() UsersTable {
	if t.Table == "" {
		t.Table = DefaultUsersTable
	}
	if t.ID == "" {
		t.ID = DefaultUsersID
	}
	if t.Name == "" {
		t.Name = DefaultUsersName
	}
	return t
}

// isDefault reports whether t is the kit's table of users.
func (t UsersTable) isDefault() bool {
	return t.effective() == UsersTable{Table: DefaultUsersTable, ID: DefaultUsersID, Name: DefaultUsersName}
}

// Validate reports every name of t that is not a plain SQL identifier
// (see [UsersTable]).
func (t UsersTable) Validate() error {
	t = t.effective()
	var errs []error
	parts := strings.Split(t.Table, ".")
	if len(parts) > 2 || !all(parts, identifier) {
		errs = append(errs, fmt.Errorf("sqlstore: UsersTable.Table %q is not a table name (letters, digits and _, optionally schema.table)", t.Table))
	}
	if !identifier(t.ID) {
		errs = append(errs, fmt.Errorf("sqlstore: UsersTable.ID %q is not a column name (letters, digits and _)", t.ID))
	}
	if !identifier(t.Name) {
		errs = append(errs, fmt.Errorf("sqlstore: UsersTable.Name %q is not a column name (letters, digits and _)", t.Name))
	}
	return errors.Join(errs...)
}

func all(ss []string, ok func(string) bool) bool {
	for _, s := range ss {
		if !ok(s) {
			return false
		}
	}
	return true
}

// identifier reports whether s is a plain SQL identifier.
func identifier(s string) bool {
	if s == "" || len(s) > maxIdentifier || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// quote quotes a validated identifier, or each part of a qualified one.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, ".", `"."`) + `"`
}

// articleStatements are the statements of [Articles] that name the table
// of users: every one of them, the keyset pages of ListPublishedFrom
// included, so that a store over another table never reads users.
type articleStatements struct {
	findPublished, listPublished, insertArticle, explainDelete string
	listFromTop, listAfter, listBefore                         string
}

// defaultStatements are those of the kit's table of users.
var defaultStatements = articleStatements{findPublished, listPublished, insertArticle, explainDelete,
	listFromTop, listAfter, listBefore}

// statements returns the statements of articles over t, which is valid:
// the kit's, with the references to users replaced.
func (t UsersTable) statements() articleStatements {
	if t.isDefault() {
		return defaultStatements
	}
	t = t.effective()
	table, id, name := quote(t.Table), quote(t.ID), quote(t.Name)
	r := strings.NewReplacer(
		"JOIN users AS u ON u.id = a.user_id", "JOIN "+table+" AS u ON u."+id+" = a.user_id",
		"u.name\n", "u."+name+"\n",
		"u.name AS author\n", "u."+name+" AS author\n",
		"(SELECT name FROM users WHERE users.id = articles.user_id)", "(SELECT u."+name+" FROM "+table+" AS u WHERE u."+id+" = articles.user_id)",
		"(SELECT 1 FROM users WHERE id = $2)", "(SELECT 1 FROM "+table+" AS u WHERE u."+id+" = $2)",
	)
	return articleStatements{
		findPublished: r.Replace(findPublished),
		listPublished: r.Replace(listPublished),
		insertArticle: r.Replace(insertArticle),
		explainDelete: r.Replace(explainDelete),
		listFromTop:   r.Replace(listFromTop),
		listAfter:     r.Replace(listAfter),
		listBefore:    r.Replace(listBefore),
	}
}

// articlesReference is the foreign key of the articles migrations of both
// databases, which ArticlesMigration points at another table.
const articlesReference = "REFERENCES users (id)"

// ArticlesMigration returns the up file articles.up.sql of files (the
// migrations of a database package) with its foreign key pointing at t
// instead of the kit's users: the script that creates the table articles
// of a service whose users are in a table of its own. It is
// idempotent, as the file is; it creates no table of users. The database
// packages wrap it (postgres.ArticlesMigration, sqlite.ArticlesMigration).
func ArticlesMigration(files fs.FS, t UsersTable) (string, error) {
	if err := t.Validate(); err != nil {
		return "", err
	}
	script, err := fs.ReadFile(files, string(ArticlesSchema)+".up.sql")
	if err != nil {
		return "", err
	}
	s := string(script)
	if !strings.Contains(s, articlesReference) {
		return "", fmt.Errorf("sqlstore: articles.up.sql has no %q to point at %s", articlesReference, t.effective().Table)
	}
	t = t.effective()
	return strings.Replace(s, articlesReference, "REFERENCES "+quote(t.Table)+" ("+quote(t.ID)+")", 1), nil
}
