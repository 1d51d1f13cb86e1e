package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"

	"github.com/gqlkit/gqlkit/sqlstore"
)

// migrations holds the schema files.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the schema of PostgreSQL as SQL files, to feed to
// a migration tool of your own: NAME.up.sql creates a domain's tables,
// NAME.down.sql drops them, for the names users, auth, auth_users (the
// link between auth and users: run it after both when you run both),
// idempotency and articles, in that order. Every up file is idempotent.
func Migrations() fs.FS {
	sub, _ := fs.Sub(migrations, "migrations") // cannot fail: the directory is embedded
	return sub
}

// migrateLockID is the key of the advisory lock that serialises concurrent
// migrations ("gqlkit" in ASCII).
const migrateLockID = 0x67716c6b6974

// Migrate creates the tables and indexes of every schema that are
// missing, then runs the application's own scripts in more: it is
// [Store.MigrateSchemas] with all the schemas.
func (s *Store) Migrate(ctx context.Context, more ...string) error {
	return s.MigrateSchemas(ctx, nil, more...)
}

// MigrateSchemas creates the tables and indexes of schemas (all of them
// when there are none) that are missing, by running their up files of
// [Migrations] in order ([sqlstore.Migrate]), then the application's own scripts in more, all
// in one transaction under an advisory lock, so that any number of
// processes may start at once on an empty database. Every script must be
// idempotent: running it again changes nothing. The tables go into the
// first schema of the connection's search_path.
func (s *Store) MigrateSchemas(ctx context.Context, schemas []sqlstore.Schema, more ...string) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLockID)); err != nil {
			return err
		}
		return sqlstore.Migrate(ctx, Migrations(), schemas, more, func(ctx context.Context, _, script string) error {
			_, err := tx.Exec(ctx, script)
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}

// ArticlesMigration returns the up script of the table articles of
// [Migrations] with its foreign key user_id pointing at t, a table of
// users of the service's own, instead of the kit's users: run it in the
// more of [Store.MigrateSchemas], with the schemas the service uses
// besides (not [sqlstore.UsersSchema] when it has a users table), or feed
// it to a migration tool; read the articles with [Store.ArticlesOver] over
// the same t. The table of users must exist first, with an integer key
// (its primary key, or a unique column). The script is idempotent and
// creates no other table. A name of t that is not a plain identifier is
// an error ([sqlstore.UsersTable.Validate]).
func ArticlesMigration(t sqlstore.UsersTable) (string, error) {
	script, err := sqlstore.ArticlesMigration(Migrations(), t)
	if err != nil {
		return "", fmt.Errorf("postgres: %w", err)
	}
	return script, nil
}
