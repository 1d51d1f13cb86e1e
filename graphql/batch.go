package graphql

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// BatchResolver resolves a field for many parents in one call; [Batch]
// makes one, and it is set as [Field].Batch. NewSchema checks its Go types
// as it checks a [TypedResolver]'s.
type BatchResolver interface {
	signature() typedSignature
	bind(coord string, dec *decoder) schema.Resolver
}

// Batch binds a batch resolver to a field: fn receives every parent of the
// field at one level of the answer, as []P, with the field's arguments
// decoded into A, and returns one result per parent, in the parents'
// order. P, A and R follow the rules of [Resolver], R being the type of
// one parent's value.
//
// The executor collects the parents: when it completes a list of objects
// (a list of lists too), it calls fn once for all the list's items, for
// each batched field their selection holds, and, through the results,
// once for each batched field below those, level by level, before it
// writes the first item. So books { author { books { reviews { id } } } },
// with author, books and reviews batched, makes one call per field: four
// statements, however many books and authors there are. Aliases of one
// field with the same arguments share a call; with other arguments they
// make another. Fields without a resolver (a connection's edges and
// node) carry the batch: they are read ahead with their level. A batched
// field of an object that is not an item of a list, or that is reached
// through a field with a resolver of its own, is resolved in a batch of
// one for each such object. NewSchema refuses Batch on a mutation field. fn runs on the
// request's goroutine, like every resolver; nothing is cached across
// requests.
//
// An error fails the field for every parent of the batch, each with its
// own path; return an [ItemErrors] to fail only some. A result slice whose
// length is not the number of parents, or a panic, is an internal error
// (masked to clients) for every parent. Field middleware and a
// [Tracer] see one call per batch (see [BatchParents]).
func Batch[P, A, R any](fn func(ctx context.Context, parents []P, args A) ([]R, error)) BatchResolver {
	return &batchFunc[P, A, R]{fn: fn}
}

// BatchParents is the parent value that field middleware, and the
// validation of arguments, receive for a batched field (see [Batch]):
// the parents of the batch, in order. The middleware is called once per
// batch; what its next returns is the batch's result, to be returned
// unchanged (or replaced by an error, which fails every parent). Any other
// value is an internal error for every parent. The [ResolveInfo] of a
// batch call has the path of the field with the list indexes the parents
// share (none past the point where the batch was collected).
type BatchParents []any

// ItemErrors is the error a batch resolver returns to fail some of its
// parents only: one entry per parent, in the parents' order, nil for
// those that succeeded, whose values are taken from the results returned
// beside it. Each failure is a field error at its own parent's path.
type ItemErrors []error

// Error summarises the failures, for logs.
func (e ItemErrors) Error() string {
	n := 0
	var first error
	for _, err := range e {
		if err != nil {
			if first == nil {
				first = err
			}
			n++
		}
	}
	if first == nil {
		return "graphql: no item failed"
	}
	return fmt.Sprintf("graphql: %d of %d items failed; the first: %v", n, len(e), first)
}

type batchFunc[P, A, R any] struct {
	fn func(context.Context, []P, A) ([]R, error)
}

func (b *batchFunc[P, A, R]) signature() typedSignature {
	return typedSignature{parent: reflect.TypeFor[P](), args: reflect.TypeFor[A](), result: reflect.TypeFor[R]()}
}

func (b *batchFunc[P, A, R]) bind(coord string, dec *decoder) schema.Resolver {
	fn := b.fn
	if fn == nil {
		return nil
	}
	decode := argsDecoder[A](coord, dec)
	return func(ctx context.Context, parent any, args map[string]any, info schema.Info) (any, error) {
		in, ok := parent.(BatchParents)
		if !ok {
			return nil, fmt.Errorf("graphql: %s: the batch resolver was given a parent of type %T, not BatchParents", coord, parent)
		}
		ps := make([]P, len(in))
		for i, p := range in {
			if p == nil {
				continue
			}
			if ps[i], ok = p.(P); !ok {
				return nil, fmt.Errorf("graphql: %s: the batch resolver takes parents of type %s, but was given %T", coord, reflect.TypeFor[P](), p)
			}
		}
		a, err := decode(Args{m: args})
		if err != nil {
			return nil, err
		}
		rs, err := fn(ctx, ps, a)
		var items ItemErrors
		if err != nil {
			err = fault.BoundedError(err)
		}
		if err != nil && !errors.As(err, &items) {
			return nil, err
		}
		if err != nil && len(items) != len(ps) {
			return nil, fmt.Errorf("graphql: %s: the batch resolver returned %d item errors for %d parents", coord, len(items), len(ps))
		}
		if rs == nil && err != nil {
			rs = make([]R, len(ps))
		}
		if len(rs) != len(ps) {
			return nil, fmt.Errorf("graphql: %s: the batch resolver returned %d results for %d parents", coord, len(rs), len(ps))
		}
		return &schema.BatchOut{Vals: reflect.ValueOf(rs), Errs: items}, nil
	}
}
