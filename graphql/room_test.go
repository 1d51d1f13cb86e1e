package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// recordingRoom grants what it is asked for (doubled, when double is set),
// or refuses with refuse, and records each request.
type recordingRoom struct {
	asked  []int
	double bool
	refuse error
	short  bool // grants one byte less than asked
}

func (r *recordingRoom) Grow(_ context.Context, need int) (int, error) {
	r.asked = append(r.asked, need)
	switch {
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

	room := &recordingRoom{double: true}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, RoomBytes: 1000, MaxResponseBytes: 1 << 20})
	if err != nil || string(res.Data) != string(full.Data) || len(res.Errors) > 0 {
		t.Fatalf("with a growing room: %v, %d bytes, errors %v; want the %d bytes of the answer", err, len(res.Data), res.Errors, len(full.Data))
	}
	if lists.Load() != 1 || texts.Load() != 100 {
		t.Errorf("items ran %d times and text %d; want once and 100 times", lists.Load(), texts.Load())
	}
	// Data of ~11 KB from a room of 1000, doubled each time: 1000 → 2
	// KB → 4 → 8 → 16.
	if len(room.asked) != 4 || room.asked[0] <= 1000 {
		t.Errorf("Grow was asked for %v; want 4 requests, the first past 1000", room.asked)
	}
	for i := 1; i < len(room.asked); i++ {
		if room.asked[i] <= 2*room.asked[i-1] {
			t.Errorf("Grow asked for %d after granting %d", room.asked[i], 2*room.asked[i-1])
		}
	}
	// A room as large as the bound, or no Room, is never asked.
	room = &recordingRoom{}
	if _, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, RoomBytes: 1 << 20, MaxResponseBytes: 1 << 20}); err != nil || len(room.asked) > 0 {
		t.Errorf("a room of MaxResponseBytes: %v, asked %v; want never asked", err, room.asked)
	}
}

// TestRoomRefused: a Room that refuses ends the execution: Execute returns
// its error and no data, and no resolver runs after the refusal. A room
// smaller than asked is an error too.
func TestRoomRefused(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ a: items(n: 10, size: 1000) { text } b: items(n: 10, size: 1000) { text } }")
	busy := errors.New("no room")
	room := &recordingRoom{refuse: busy}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, RoomBytes: 5000, MaxResponseBytes: 1 << 20})
	if !errors.Is(err, busy) || res.Data != nil || res.Errors != nil {
		t.Errorf("a refused room: %v, data %.40q, errors %v; want the Room's error and nothing else", err, res.Data, res.Errors)
	}
	if lists.Load() != 1 || texts.Load() > 6 {
		t.Errorf("items ran %d times and text %d; want once, and the texts stopped at the refusal", lists.Load(), texts.Load())
	}
	_, err = op.Execute(context.Background(), graphql.ExecParams{Room: &recordingRoom{short: true}, RoomBytes: 5000})
	if err == nil || !strings.HasPrefix(err.Error(), "graphql: Room.Grow granted ") {
		t.Errorf("a room smaller than asked: %v, want an error", err)
	}
}

// TestResponseTooLarge: past MaxResponseBytes the data is null with one
// error, whose cause is ErrResponseTooLarge and whose presented form
// keeps the message and the code; the Room is never asked past the bound.
func TestResponseTooLarge(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ items(n: 100, size: 100) { text } }")
	room := &recordingRoom{}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, RoomBytes: 1000, MaxResponseBytes: 5000})
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
	nop := zerolog.Nop()
	for name, e := range map[string]any{"as executed": res.Errors[0],
		"presented": apierror.Presenter{Logger: &nop}.GraphQL(context.Background(), res.Errors[0])} {
		if got, _ := json.Marshal(e); string(got) != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := apierror.CodeOf(res.Errors[0]); got != apierror.CodeResponseTooLarge {
		t.Errorf("CodeOf = %s, want RESPONSE_TOO_LARGE", got)
	}
}
