package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// recordingRoom grants a first room of first bytes (at least what it is
// asked for), then what it is asked for (doubled, when double is set), or
// refuses with refuse, and records each request.
type recordingRoom struct {
	asked  []int
	first  int
	double bool
	refuse error // refuses all but the first room
	short  bool  // grants one byte less than asked
}

func (r *recordingRoom) Grow(_ context.Context, need int) (int, error) {
	r.asked = append(r.asked, need)
	switch {
	case len(r.asked) == 1 && r.refuse == nil && !r.short:
		return max(need, r.first), nil
	case len(r.asked) == 1 && need <= r.first:
		return r.first, nil
	case r.refuse != nil:
		return 0, r.refuse
	case r.short:
		return need - 1, nil
	case r.double:
		return 2 * need, nil
	}
	return need, nil
}

// roomSchema has items: a list of n strings of size bytes, counting its
// calls and those of each item's text.
func roomSchema(t *testing.T, lists, texts *atomic.Int64) *graphql.Schema {
	t.Helper()
	item := &graphql.Object{Name: "Item", Fields: graphql.Fields{
		{Name: "text", Type: graphql.String, Resolve: func(_ context.Context, parent any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			texts.Add(1)
			return parent, nil
		}},
	}}
	return newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{
		Name: "items", Type: graphql.NewList(item),
		Args: []graphql.Argument{{Name: "n", Type: graphql.Int}, {Name: "size", Type: graphql.Int}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			lists.Add(1)
			n, _ := args.Int("n")
			size, _ := args.Int("size")
			out := make([]string, n)
			for i := range out {
				out[i] = strings.Repeat("x", size)
			}
			return out, nil
		},
	})})
}

// TestRoomGrowsOnce: data that outgrows its first room asks the Room for
// more each time it passes the room granted, and goes on: every resolver
// runs once, and the answer is whole.
func TestRoomGrowsOnce(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ items(n: 100, size: 100) { text } }")
	full := execute(op, context.Background(), graphql.ExecParams{})
	lists.Store(0)
	texts.Store(0)

	room := &recordingRoom{first: 1000, double: true}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, MaxResponseBytes: 1 << 20})
	if err != nil || string(res.Data) != string(full.Data) || len(res.Errors) > 0 {
		t.Fatalf("with a growing room: %v, %d bytes, errors %v; want the %d bytes of the answer", err, len(res.Data), res.Errors, len(full.Data))
	}
	if lists.Load() != 1 || texts.Load() != 100 {
		t.Errorf("items ran %d times and text %d; want once and 100 times", lists.Load(), texts.Load())
	}
	// The first room, asked for before any data; then data of ~11 KB
	// from a room of 1000, doubled each time: 1000 → 2 KB → 4 → 8 → 16.
	if len(room.asked) != 5 || room.asked[0] != 0 || room.asked[1] <= 1000 {
		t.Errorf("Grow was asked for %v; want 5 requests: 0 bytes, then past 1000", room.asked)
	}
	for i := 2; i < len(room.asked); i++ {
		if room.asked[i] <= 2*room.asked[i-1] {
			t.Errorf("Grow asked for %d after granting %d", room.asked[i], 2*room.asked[i-1])
		}
	}
	// A first room as large as the bound is asked for once.
	room = &recordingRoom{first: 1 << 20}
	if _, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, MaxResponseBytes: 1 << 20}); err != nil || len(room.asked) != 1 {
		t.Errorf("a first room of MaxResponseBytes: %v, asked %v; want asked once", err, room.asked)
	}
}

// TestRoomRefused: a Room that refuses ends the execution: Execute returns
// its error and no data, and no resolver runs after the refusal; a first
// room refused, none runs at all. A room smaller than asked is an error
// too.
func TestRoomRefused(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ a: items(n: 10, size: 1000) { text } b: items(n: 10, size: 1000) { text } }")
	busy := errors.New("no room")
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: refusing{busy}, MaxResponseBytes: 1 << 20})
	if !errors.Is(err, busy) || res.Data != nil || res.Errors != nil || lists.Load() != 0 {
		t.Errorf("a first room refused: %v, data %.40q, errors %v, %d resolvers ran; want the Room's error, nothing else, and no resolver", err, res.Data, res.Errors, lists.Load())
	}
	room := &recordingRoom{first: 5000, refuse: busy}
	res, err = op.Execute(context.Background(), graphql.ExecParams{Room: room, MaxResponseBytes: 1 << 20})
	if !errors.Is(err, busy) || res.Data != nil || res.Errors != nil {
		t.Errorf("a refused room: %v, data %.40q, errors %v; want the Room's error and nothing else", err, res.Data, res.Errors)
	}
	if lists.Load() != 1 || texts.Load() > 6 {
		t.Errorf("items ran %d times and text %d; want once, and the texts stopped at the refusal", lists.Load(), texts.Load())
	}
	_, err = op.Execute(context.Background(), graphql.ExecParams{Room: &recordingRoom{first: 5000, short: true}})
	if !errors.Is(err, graphql.ErrShortRoom) {
		t.Errorf("a room smaller than asked: %v, want ErrShortRoom", err)
	}
}

// refusing is a Room that refuses every request with its error.
type refusing struct{ err error }

func (r refusing) Grow(context.Context, int) (int, error) { return 0, r.err }

// TestResponseTooLarge: past MaxResponseBytes the data is null with one
// error, whose cause is ErrResponseTooLarge and whose presented form
// keeps the message and the code; the Room is never asked past the bound.
func TestResponseTooLarge(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ items(n: 100, size: 100) { text } }")
	room := &recordingRoom{first: 1000}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, MaxResponseBytes: 5000})
	if err != nil || string(res.Data) != "null" || len(res.Errors) != 1 {
		t.Fatalf("past the bound: %v, data %.40s, errors %v; want null and one error", err, res.Data, res.Errors)
	}
	if !errors.Is(res.Errors[0], graphql.ErrResponseTooLarge) {
		t.Errorf("errors.Is(%v, ErrResponseTooLarge) = false", res.Errors[0])
	}
	for _, need := range room.asked {
		if need > 5000 {
			t.Errorf("Grow asked for %d, past MaxResponseBytes", need)
		}
	}
	want := `{"message":"The response is larger than the limit of 5000 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}`
	nop := slog.New(slog.DiscardHandler)
	for name, e := range map[string]any{"as executed": res.Errors[0],
		"presented": apierror.Presenter{Logger: nop}.GraphQL(context.Background(), res.Errors[0])} {
		if got, _ := json.Marshal(e); string(got) != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := apierror.CodeOf(res.Errors[0]); got != errcode.CodeResponseTooLarge {
		t.Errorf("CodeOf = %s, want RESPONSE_TOO_LARGE", got)
	}
}

// TestRoomBeforeBeforeExecute: the first room is asked for once the cost
// is checked and before BeforeExecute, so that a policy there (a mutation
// gate that checks credentials again) runs after any wait for room; a
// first room refused, BeforeExecute does not run.
func TestRoomBeforeBeforeExecute(t *testing.T) {
	var lists, texts atomic.Int64
	op := prepare(t, roomSchema(t, &lists, &texts), "{ items(n: 1, size: 1) { text } }")
	room := &recordingRoom{first: 1000}
	var askedBefore []int
	_, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, BeforeExecute: func(context.Context, *graphql.Operation) error {
		askedBefore = append([]int(nil), room.asked...)
		return nil
	}})
	if err != nil || len(askedBefore) != 1 || askedBefore[0] != 0 {
		t.Errorf("BeforeExecute saw the Room asked for %v (error %v); want the first room asked for already", askedBefore, err)
	}
	ran := false
	_, err = op.Execute(context.Background(), graphql.ExecParams{Room: refusing{errors.New("no room")},
		BeforeExecute: func(context.Context, *graphql.Operation) error { ran = true; return nil }})
	if err == nil || ran {
		t.Errorf("a first room refused: error %v, BeforeExecute ran %v; want the error and no BeforeExecute", err, ran)
	}
}
