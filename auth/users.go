package auth

import (
	"context"

	"github.com/gqlkit/gqlkit/errcode"
)

// UserStore keeps the users who log in: the user management of an
// application (create, delete) beside the lookup [Login] needs. The
// stores of [github.com/gqlkit/gqlkit/postgres] and
// [github.com/gqlkit/gqlkit/sqlite] implement it (their Users schema); the
// example server's "users" commands use it.
// Implementations are safe for concurrent use.
type UserStore interface {
	// Users is the lookup of [Login]. When no user has the address the
	// error wraps both ErrUserNotFound and errcode.ErrNotFound.
	Users

	// CreateUser stores a new user and returns its id. passwordHash is
	// stored as given (see [HashPassword]); email is compared exactly as
	// given, so normalise it (trim, lower-case) before calling. A taken
	// e-mail address gives an error wrapping [ErrEmailTaken].
	CreateUser(ctx context.Context, name, email string, passwordHash []byte) (int64, error)

	// DeleteUser deletes user id and, with it, everything they own (their
	// articles). When there is no such user the error wraps
	// errcode.ErrNotFound.
	DeleteUser(ctx context.Context, id int64) error
}

// ErrEmailTaken means another user has the e-mail address. It carries what
// clients should see, so that apierror.Presenter answers it as a 422 with
// {"email": ["The email has already been taken."]} when a handler or
// resolver returns it unchanged; stores wrap it with detail for the log.
var ErrEmailTaken error = emailTaken{}

type emailTaken struct{}

func (emailTaken) Error() string { return "auth: the e-mail address is taken" }

// Unwrap returns the client view (a new one each time: its Fields map is
// the caller's).
func (emailTaken) Unwrap() error {
	const msg = "The email has already been taken."
	return errcode.ValidationFailed(msg, map[string][]string{"email": {msg}})
}
