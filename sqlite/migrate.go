package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/gqlkit/gqlkit/sqlstore"
)

// migrations holds the schema files.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the schema of SQLite as SQL files, to feed to a
// migration tool of your own: NAME.up.sql creates a domain's tables,
// NAME.down.sql drops them, for the names users, auth, auth_users (the
// link between auth and users, a trigger: run it after both when you run
// both), idempotency and articles, in that order. Every up file is
// idempotent, but idempotency.up.sql on a table made before its columns
// owner and held_until, which [Store.MigrateSchemas] adds first.
func Migrations() fs.FS {
	sub, _ := fs.Sub(migrations, "migrations") // cannot fail: the directory is embedded
	return sub
}

// Migrate creates the tables and indexes of every schema that are
// missing, then runs the application's own scripts in more: it is
// [Store.MigrateSchemas] with all the schemas.
func (s *Store) Migrate(ctx context.Context, more ...string) error {
	return s.MigrateSchemas(ctx, nil, more...)
}

// MigrateSchemas creates the tables and indexes of schemas (all of them
// when there are none) that are missing, by running their up files of
// [Migrations] in order ([sqlstore.Migrate]), then the application's own scripts in more, all
// in one transaction, which holds SQLite's write lock from its start:
// processes that start at once migrate one after the other. Every script
// must be idempotent: running it again changes nothing.
func (s *Store) MigrateSchemas(ctx context.Context, schemas []sqlstore.Schema, more ...string) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	err = sqlstore.Migrate(ctx, Migrations(), schemas, more, func(ctx context.Context, name, script string) error {
		if name == string(sqlstore.IdempotencySchema) {
			if err := addClaimColumns(ctx, tx); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, script)
		return err
	})
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}

// addClaimColumns adds the columns owner and held_until to a table
// idempotency_keys made before them (whose held rows kept their holder in
// header and their lease in expires_at, which the store still reads):
// SQLite has no ADD COLUMN IF NOT EXISTS.
func addClaimColumns(ctx context.Context, tx *sql.Tx) error {
	var columns, held int
	err := tx.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE name = 'held_until') FROM pragma_table_info('idempotency_keys')`).Scan(&columns, &held)
	if err != nil || columns == 0 || held > 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN held_until BIGINT`)
	return err
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
		return "", fmt.Errorf("sqlite: %w", err)
	}
	return script, nil
}
