package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"

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
// [Migrations] in order, then the application's own scripts in more, all
// in one transaction under an advisory lock, so that any number of
// processes may start at once on an empty database. Every script must be
// idempotent: running it again changes nothing. The tables go into the
// first schema of the connection's search_path.
func (s *Store) MigrateSchemas(ctx context.Context, schemas []Schema, more ...string) error {
	names, err := sqlstore.Migrations(schemas)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLockID)); err != nil {
			return err
		}
		for _, name := range names {
			script, err := migrations.ReadFile("migrations/" + name + ".up.sql")
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(script)); err != nil {
				return fmt.Errorf("%s.up.sql: %w", name, err)
			}
		}
		for i, script := range more {
			if _, err := tx.Exec(ctx, script); err != nil {
				return fmt.Errorf("script %d of the application: %w", i+1, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
