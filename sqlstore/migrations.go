package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
)

// Schema names the tables of one domain, which the MigrateSchemas method
// of the Store of postgres and sqlite creates.
type Schema string

// The schemas, each usable without the others but ArticlesSchema, whose
// table references users.
const (
	// UsersSchema is the table users, of [Users].
	UsersSchema Schema = "users"
	// AuthSchema is the tables of [Tokens] (auth_revocations,
	// auth_sessions, auth_refresh_tokens) and [Throttle]
	// (auth_login_failures). Migrated with UsersSchema, the sessions and
	// refresh tokens of a user go with the user (the migration
	// auth_users: foreign keys on PostgreSQL, a trigger on SQLite).
	AuthSchema Schema = "auth"
	// IdempotencySchema is the table idempotency_keys of [Keys].
	IdempotencySchema Schema = "idempotency"
	// ArticlesSchema is the table articles, of [Articles]. Its foreign
	// key references a table users with columns id and name: the kit's
	// (UsersSchema) or one of the application's. A service whose users are
	// in a table of another name or shape leaves ArticlesSchema out and
	// runs [ArticlesMigration] over its [UsersTable] instead.
	ArticlesSchema Schema = "articles"
)

// migrationOrder lists the migrations of both databases in the order they
// run: each domain's, and auth_users, the link between auth and users,
// after both.
var migrationOrder = []string{"users", "auth", "auth_users", "idempotency", "articles"}

// schemas are all the schemas, as a migration without any runs them.
var schemas = []Schema{UsersSchema, AuthSchema, IdempotencySchema, ArticlesSchema}

// Migrate runs the migrations of a database: for each of schemas (all of
// them when there are none), in order, the up file NAME.up.sql of files,
// with auth_users after users and auth when both are there; then the
// application's own scripts in more. Each goes to exec, with the
// migration's name ("" for the application's), and the first that fails
// ends the migration with an error that names it. An unknown schema is an
// error before anything runs. The database packages call it in one
// transaction: postgres.Store.MigrateSchemas and
// sqlite.Store.MigrateSchemas.
func Migrate(ctx context.Context, files fs.FS, want []Schema, more []string, exec func(ctx context.Context, name, script string) error) error {
	if len(want) == 0 {
		want = schemas
	}
	for _, s := range want {
		if !slices.Contains(schemas, s) {
			return fmt.Errorf("no schema %q (the schemas are %v)", s, schemas)
		}
	}
	for _, name := range migrationOrder {
		run := slices.Contains(want, Schema(name))
		if name == "auth_users" {
			run = slices.Contains(want, UsersSchema) && slices.Contains(want, AuthSchema)
		}
		if !run {
			continue
		}
		script, err := fs.ReadFile(files, name+".up.sql")
		if err == nil {
			err = exec(ctx, name, string(script))
		}
		if err != nil {
			return fmt.Errorf("%s.up.sql: %w", name, err)
		}
	}
	for i, script := range more {
		if err := exec(ctx, "", script); err != nil {
			return fmt.Errorf("script %d of the application: %w", i+1, err)
		}
	}
	return nil
}
