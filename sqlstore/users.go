package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
)

// The statements of users, shared word for word by both dialects.
const (
	// insertUser stores a user and returns its id. $1 = name, $2 = email,
	// $3 = password hash, $4 = created_at = updated_at.
	insertUser = `INSERT INTO users (name, email, password, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4)
RETURNING id`

	// deleteUser deletes a user; their articles go by ON DELETE CASCADE.
	deleteUser = `DELETE FROM users WHERE id = $1`

	// passwordHash reads the credentials of a user by e-mail address.
	passwordHash = `SELECT id, password FROM users WHERE email = $1`
)

// Users is the auth.UserStore of a database, in the table users: a
// user's id, name, unique e-mail address and password hash. Build it with
// [New] (postgres.New/Open and sqlite.Open do).
type Users struct{ c *core }

var _ auth.UserStore = (*Users)(nil)

// CreateUser implements auth.UserStore: one INSERT … RETURNING the new
// id. An e-mail address another user has is auth.ErrEmailTaken. In a
// request that holds a claim of the database's [Keys], it runs in the
// claim's transaction.
func (s *Users) CreateUser(ctx context.Context, name, email string, passwordHash []byte) (int64, error) {
	c := s.c
	var id int64
	db, err := c.writer(ctx)
	if err == nil {
		err = writeReturning(ctx, db, insertUser, []any{name, email, string(passwordHash), c.bindTime(c.stamp(time.Time{}))}, &id)
	}
	if err != nil {
		if c.violation(err) == UniqueViolation {
			return 0, fmt.Errorf("users: creating a user: %w", auth.ErrEmailTaken)
		}
		return 0, fmt.Errorf("users: creating a user: %w", err)
	}
	return id, nil
}

// DeleteUser implements auth.UserStore: one DELETE. The user's articles
// go with them, and so do their sessions and refresh tokens when the
// users and auth schemas were migrated together ([AuthSchema]). A user
// that does not exist is errcode.ErrNotFound. In a request that holds a
// claim of the database's [Keys], it runs in the claim's transaction.
func (s *Users) DeleteUser(ctx context.Context, id int64) error {
	c := s.c
	db, err := c.writer(ctx)
	if err != nil {
		return fmt.Errorf("users: deleting user %d: %w", id, err)
	}
	n, err := db.Exec(ctx, deleteUser, id)
	if err != nil {
		return fmt.Errorf("users: deleting user %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("users: user %d: %w", id, errcode.ErrNotFound)
	}
	return nil
}

// PasswordHash implements auth.UserStore: one SELECT on the unique
// e-mail address. An address no user has matches both
// auth.ErrUserNotFound and errcode.ErrNotFound.
func (s *Users) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
	c := s.c
	var (
		id   int64
		hash string
	)
	err := c.reader(ctx).QueryRow(ctx, passwordHash, email).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, errUnknownEmail
	}
	if err != nil {
		return 0, nil, fmt.Errorf("users: reading a password hash: %w", err)
	}
	return id, []byte(hash), nil
}

// errUnknownEmail is what PasswordHash returns for an address no user has.
var errUnknownEmail error = unknownEmail{}

type unknownEmail struct{}

func (unknownEmail) Error() string { return "users: no user has this e-mail address" }

// Is makes the error match both errcode.ErrNotFound and
// auth.ErrUserNotFound.
func (unknownEmail) Is(target error) bool {
	return target == errcode.ErrNotFound || target == auth.ErrUserNotFound
}
