package exec

import (
	"context"
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
)

// ErrShortRoom is the cause of the error of an execution whose Room
// granted less room than the data needed (graphql.ErrShortRoom).
var ErrShortRoom = errors.New("graphql: Room.Grow granted less room than the data needs")

// ErrResponseTooLarge is the cause of the one error of an execution whose
// data outgrew its bound (graphql.ErrResponseTooLarge).
var ErrResponseTooLarge = errors.New("graphql: the response is larger than the limit")

// MessageTimeout is the message of the one error of an execution past its
// deadline (graphql.MessageTimeout).
const MessageTimeout = "The operation did not complete in time: the fields it had not resolved are null."

// ErrDeadline is the cause of an execution context whose deadline passed:
// the caller makes the context with context.WithDeadlineCause and it.
var ErrDeadline = errors.New("graphql: the operation's deadline passed")

// TimeoutError is the one error of an execution past its deadline, at
// path and locs (none for an execution that never started).
func TimeoutError(path ast.Path, locs []gqlerror.Location) *gqlerror.Error {
	return &gqlerror.Error{Message: MessageTimeout, Path: path, Locations: locs,
		Extensions: map[string]any{"code": errcode.CodeTimeout}}
}

// PastDeadline reports whether ctx, an execution's, ended because its
// deadline passed.
func PastDeadline(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == ErrDeadline
}
