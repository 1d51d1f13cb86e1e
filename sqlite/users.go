package sqlite

import "context"

// CreateUser implements [auth.UserStore]: one INSERT … RETURNING through the
// writer. A taken e-mail address (SQLITE_CONSTRAINT_UNIQUE) is
// [auth.ErrEmailTaken].
func (s *Store) CreateUser(ctx context.Context, name, email string, passwordHash []byte) (int64, error) {
	return s.core.CreateUser(ctx, name, email, passwordHash)
}

// DeleteUser implements [auth.UserStore]. The user's articles go with
// them (foreign keys must be on: see [New]), and so do their sessions and
// refresh tokens when the Auth schema was migrated with Users.
func (s *Store) DeleteUser(ctx context.Context, id int64) error {
	return s.core.DeleteUser(ctx, id)
}

// PasswordHash implements [auth.UserStore]: one SELECT on the unique
// e-mail address, through the read-only pool.
func (s *Store) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
	return s.core.PasswordHash(ctx, email)
}
