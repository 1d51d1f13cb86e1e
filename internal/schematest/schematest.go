// Package schematest checks that the schemas of the SQL stores work on
// their own: the checks of the postgres and sqlite packages' tests.
package schematest

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Store is the Store of postgres or sqlite.
type Store interface {
	MigrateSchemas(ctx context.Context, schemas []sqlstore.Schema, more ...string) error
	Tokens() *sqlstore.Tokens
	Throttle() *sqlstore.Throttle
	Idempotency() *sqlstore.Keys
}

// SchemaAlone migrates the auth schema alone, and the idempotency schema
// alone, each on a new database of open's beside a table accounts of the
// service's own (created by the script accounts), and uses it; users, which
// reports whether the database has a table users, must then find none.
func SchemaAlone(t *testing.T, accounts string, open func(t *testing.T) (s Store, users func() bool)) {
	ctx := context.Background()
	for _, schema := range []sqlstore.Schema{sqlstore.AuthSchema, sqlstore.IdempotencySchema} {
		t.Run(string(schema), func(t *testing.T) {
			s, users := open(t)
			if err := s.MigrateSchemas(ctx, []sqlstore.Schema{schema}, accounts); err != nil {
				t.Fatal(err)
			}
			if users() {
				t.Errorf("the %s schema alone created a table users", schema)
			}
			if schema == sqlstore.AuthSchema {
				UseTokens(t, s.Tokens(), s.Throttle())
			} else {
				UseKeys(t, s.Idempotency())
			}
		})
	}
}

// CheckFiles checks the names of the SQL files of a database's
// Migrations.
func CheckFiles(t *testing.T, files fs.FS) {
	t.Helper()
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"articles.down.sql", "articles.up.sql", "auth.down.sql", "auth.up.sql", "auth_users.down.sql", "auth_users.up.sql", "idempotency.down.sql", "idempotency.up.sql", "users.down.sql", "users.up.sql"}; !slices.Equal(names, want) {
		t.Errorf("Migrations() files = %v, want %v", names, want)
	}
}

// Keys is the idempotency store of a SQL store.
type Keys interface {
	idempotency.Store
	Tx(ctx context.Context) (*sql.Tx, error)
}

// StartSession starts a session of user with its first refresh token.
func StartSession(t *testing.T, tokens auth.TokenStore, user int64) {
	t.Helper()
	now := time.Now()
	first := auth.RefreshToken{Hash: []byte("first"), Family: "fam", UserID: user, CreatedAt: now, SessionStart: now,
		ExpiresAt: now.Add(time.Hour), FamilyExpiresAt: now.Add(24 * time.Hour)}
	if err := tokens.StartSession(context.Background(), first); err != nil {
		t.Fatal(err)
	}
}

// UseTokens starts and rotates a session of user 42, who is in no users
// table of the kit's, and counts a failed login.
func UseTokens(t *testing.T, tokens auth.TokenStore, throttle auth.LoginThrottle) {
	t.Helper()
	ctx := context.Background()
	StartSession(t, tokens, 42)
	now := time.Now()
	next := auth.RefreshToken{Hash: []byte("next"), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if _, rotated, found, err := tokens.RotateRefresh(ctx, []byte("first"), next, []byte("sealed"), now); err != nil || !rotated || !found {
		t.Errorf("RotateRefresh = rotated %t, found %t, %v", rotated, found, err)
	}
	if revoked, err := tokens.Revoked(ctx, auth.Token{UserID: 42, ID: "t", Session: "fam"}); err != nil || revoked {
		t.Errorf("Revoked = %t, %v; want a live session", revoked, err)
	}
	if err := throttle.Fail(ctx, []auth.ThrottleKey{{Key: "a:x", Window: time.Minute}}, now); err != nil {
		t.Fatal(err)
	}
	if counts, err := throttle.Failures(ctx, []string{"a:x"}, now); err != nil || counts[0].Failures != 1 {
		t.Errorf("Failures = %v, %v; want 1", counts, err)
	}
}

// UseKeys claims a key, records an answer in a write of the claim, and
// replays it.
func UseKeys(t *testing.T, keys Keys) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	k := idempotency.Key{Subject: "1", Key: "new", Fingerprint: []byte("A"), Now: now, Expires: now.Add(time.Hour), LeaseEnd: now.Add(time.Minute)}
	_, claim, err := keys.Claim(ctx, k)
	if err != nil || claim == nil {
		t.Fatalf("Claim = %v, %v", claim, err)
	}
	if tx, err := keys.Tx(claim.Context(ctx)); err != nil || tx == nil {
		t.Fatalf("Tx = %v, %v", tx, err)
	}
	if err := claim.Commit(ctx, idempotency.Response{Fingerprint: []byte("A"), Status: 201, Body: []byte("done")}); err != nil {
		t.Fatal(err)
	}
	resp, again, err := keys.Claim(ctx, k)
	if err != nil || again != nil || resp == nil || resp.Status != 201 || string(resp.Body) != "done" {
		t.Errorf("Claim after the answer = %+v, %v, %v; want the answer", resp, again, err)
	}
}

// DeleteUserTakesSessions starts a session of a new user and deletes the
// user: rows, which counts the rows of a table, must then find no
// sessions and no refresh tokens.
func DeleteUserTakesSessions(t *testing.T, users auth.UserStore, tokens auth.TokenStore, rows func(table string) int) {
	t.Helper()
	ctx := context.Background()
	ada, err := users.CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	StartSession(t, tokens, ada)
	if err := users.DeleteUser(ctx, ada); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"auth_sessions", "auth_refresh_tokens"} {
		if n := rows(table); n != 0 {
			t.Errorf("%s after the user was deleted: %d rows, want 0", table, n)
		}
	}
}

// OldHeldKey is a row of idempotency_keys held the way of the table before
// owner and held_until: holder in header, lease (now + 1 min) in
// expires_at. Insert it with $1 = the lease's end in Unix microseconds.
const OldHeldKey = `INSERT INTO idempotency_keys VALUES ('1', 'old', 'A', 0, 'holder', '', 0, $1)`

// CheckOldHeldKey checks that the key of OldHeldKey, inserted at now, is
// still held by its claim, and that new claims work beside it.
func CheckOldHeldKey(t *testing.T, keys Keys, now time.Time) {
	t.Helper()
	k := idempotency.Key{Subject: "1", Key: "old", Fingerprint: []byte("B"), Now: now, Expires: now.Add(time.Hour), LeaseEnd: now.Add(time.Second)}
	_, _, err := keys.Claim(context.Background(), k)
	var inUse *idempotency.InUseError
	if !errors.As(err, &inUse) || string(inUse.Fingerprint) != "A" {
		t.Errorf("Claim of a key held the old way: %v, want it in use by A", err)
	}
	UseKeys(t, keys)
}
