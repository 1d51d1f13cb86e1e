package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/gqlkit/gqlkit/internal/sqlstore"
)

// Schema names the tables of one domain, which [Store.MigrateSchemas]
// creates.
type Schema string

// The schemas, each usable without the others but Articles, whose table
// references users.
const (
	// Users is the table users, of the Store's auth.UserStore methods.
	Users Schema = "users"
	// Auth is the tables of [TokenStore] (auth_revocations,
	// auth_sessions, auth_refresh_tokens) and [LoginThrottle]
	// (auth_login_failures). Migrated with Users, the sessions and
	// refresh tokens of a user go with the user.
	Auth Schema = "auth"
	// Idempotency is the table idempotency_keys of [IdempotencyStore].
	Idempotency Schema = "idempotency"
	// Articles is the table articles, of the Store's articles.Store
	// methods. It needs a table users with columns id and name: the
	// kit's (Users) or one of the application's.
	Articles Schema = "articles"
)

// migrations holds the schema files.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the schema as SQL files, to feed to a migration tool
// of your own: NAME.up.sql creates a domain's tables, NAME.down.sql drops
// them, for the names users, auth, auth_users (the link between auth and
// users: run it after both when you run both), idempotency and articles,
// in that order. Every up file is idempotent.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil { // cannot happen: the directory is embedded
		return migrations
	}
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
// [Migrations] in order, then the application's own scripts in more, all
// in one transaction, which holds SQLite's write lock from its start:
// processes that start at once migrate one after the other. Every script
// must be idempotent: running it again changes nothing.
func (s *Store) MigrateSchemas(ctx context.Context, schemas []Schema, more ...string) error {
	names, err := sqlstore.Migrations(schemas)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, name := range names {
		script, err := migrations.ReadFile("migrations/" + name + ".up.sql")
		if err == nil && name == string(Idempotency) {
			err = addClaimColumns(ctx, tx)
		}
		if err == nil {
			_, err = tx.ExecContext(ctx, string(script))
		}
		if err != nil {
			return fmt.Errorf("sqlite: migrate: %s.up.sql: %w", name, err)
		}
	}
	for i, script := range more {
		if _, err := tx.ExecContext(ctx, script); err != nil {
			return fmt.Errorf("sqlite: migrate: script %d of the application: %w", i+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
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
