package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
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

// CreateUser implements auth.UserStore.
func (c *Core) CreateUser(ctx context.Context, name, email string, passwordHash []byte) (int64, error) {
	var id int64
	db, err := c.writer(ctx)
	if err == nil {
		err = writeReturning(ctx, db, insertUser, []any{name, email, string(passwordHash), c.BindTime(c.stamp(time.Time{}))}, &id)
	}
	if err != nil {
		if c.Violation(err) == UniqueViolation {
			return 0, fmt.Errorf("users: creating a user: %w", auth.ErrEmailTaken)
		}
		return 0, fmt.Errorf("users: creating a user: %w", err)
	}
	return id, nil
}

// DeleteUser implements auth.UserStore.
func (c *Core) DeleteUser(ctx context.Context, id int64) error {
	db, err := c.writer(ctx)
	if err != nil {
		return fmt.Errorf("users: deleting user %d: %w", id, err)
	}
	n, err := db.Exec(ctx, deleteUser, id)
	if err != nil {
		return fmt.Errorf("users: deleting user %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("users: user %d: %w", id, apierror.ErrNotFound)
	}
	return nil
}

// PasswordHash implements auth.UserStore.
func (c *Core) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
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

// Is makes the error match both apierror.ErrNotFound and
// auth.ErrUserNotFound.
func (unknownEmail) Is(target error) bool {
	return target == apierror.ErrNotFound || target == auth.ErrUserNotFound
}
