package graphql_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// hugeText is the string of the leaves below: made once, so that what an
// execution allocates is its own.
var hugeText = strings.Repeat("x", 5_000_000)

// hugeRow is read by the direct leaf paths: a string and a list of
// strings, struct fields without resolvers.
type hugeRow struct {
	Text string
	Tags []string
}

// hugeSchema has text, a resolver's 5 MB string (the resolved-value path),
// and row { text tags }, read straight from a struct.
func hugeSchema(t *testing.T) *graphql.Schema {
	t.Helper()
	row := &graphql.Object{Name: "Row", Fields: graphql.Fields{
		{Name: "text", Type: graphql.String},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
	}}
	return newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "text", Type: graphql.String,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return hugeText, nil }},
		graphql.Field{Name: "row", Type: row,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return &hugeRow{Text: hugeText, Tags: []string{"a", hugeText}}, nil
			}},
	)})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestStringMeasuredBeforeCopied: a 5 MB string leaf, on every path that
// writes one, is measured before it is copied into the data: past
// MaxResponseBytes the data is null without the buffer ever holding it;
// past the room, the Room is asked for room for it first, and when it
// refuses the string is never copied.
func TestStringMeasuredBeforeCopied(t *testing.T) {
	s := hugeSchema(t)
	for _, query := range []string{"{ text }", "{ row { text } }", "{ row { tags } }"} {
		t.Run(query, func(t *testing.T) {
			op := prepare(t, s, query)
			ctx := context.Background()

			dst := make([]byte, 0, 4096)
			res, err := op.Execute(ctx, graphql.ExecParams{Dst: dst, MaxResponseBytes: 1000})
			if err != nil || string(res.Data) != "null" || len(res.Errors) != 1 || !errors.Is(res.Errors[0], graphql.ErrResponseTooLarge) {
				t.Fatalf("past MaxResponseBytes: %v, data %.40q, errors %v; want null and RESPONSE_TOO_LARGE", err, res.Data, res.Errors)
			}
			if cap(res.Data) > cap(dst) {
				t.Errorf("past MaxResponseBytes of 1000, the data's buffer grew to %d bytes", cap(res.Data))
			}

			busy := errors.New("no room")
			var took uint64
			room := &recordingRoom{first: 1000, refuse: busy}
			took = allocated(func() {
				_, err = op.Execute(ctx, graphql.ExecParams{Dst: dst, Room: room, MaxResponseBytes: 16 << 20})
			})
			if !errors.Is(err, busy) || len(room.asked) != 2 || room.asked[1] < len(hugeText) {
				t.Errorf("a Room that refuses: %v, asked %v; want its error, asked for the string's room", err, room.asked)
			}
			if took > 1<<20 {
				t.Errorf("with the room refused, the execution allocated %d bytes: the string was copied before the Room was asked", took)
			}

			room = &recordingRoom{first: 1000, double: true}
			res, err = op.Execute(ctx, graphql.ExecParams{Room: room, MaxResponseBytes: 16 << 20})
			if err != nil || len(res.Data) < len(hugeText) || len(res.Errors) > 0 || len(room.asked) != 2 || room.asked[1] < len(hugeText) {
				t.Errorf("a Room that grants: %v, %d bytes, errors %v, asked %v; want the whole data, asked once for its room", err, len(res.Data), res.Errors, room.asked)
			}
		})
	}
}

// waitingRoom grants a first room of first bytes, if any, then waits for
// the execution's context to end, as a budget with no room does, and
// refuses.
type waitingRoom struct {
	first int
	asked int
}

func (r *waitingRoom) Grow(ctx context.Context, need int) (int, error) {
	r.asked++
	if r.asked == 1 && r.first > 0 {
		return max(need, r.first), nil
	}
	<-ctx.Done()
	return 0, errors.New("no room in time")
}

// TestRoomDeadline: when the deadline passes while the Room is asked, for
// the first room or for more, the answer is the deadline's: data null and
// one TIMEOUT error, not the Room's refusal.
func TestRoomDeadline(t *testing.T) {
	var lists, texts atomic.Int64
	s := roomSchema(t, &lists, &texts)
	op := prepare(t, s, "{ items(n: 10, size: 1000) { text } }")
	for _, c := range []struct {
		name      string
		first     int
		resolvers int64
	}{
		{name: "first room", first: 0, resolvers: 0},
		{name: "growth", first: 1000, resolvers: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			lists.Store(0)
			room := &waitingRoom{first: c.first}
			// 500ms, not less: items must run before it on a loaded CI host.
			res, err := op.Execute(context.Background(), graphql.ExecParams{Room: room, MaxResponseBytes: 1 << 20,
				Deadline: time.Now().Add(500 * time.Millisecond)})
			if err != nil || string(res.Data) != "null" || len(res.Errors) != 1 || res.Errors[0].Message != graphql.MessageTimeout ||
				res.Errors[0].Extensions["code"] != errcode.CodeTimeout {
				t.Fatalf("the deadline passed while the Room was asked: %v, data %.40q, errors %v; want null and one TIMEOUT error", err, res.Data, res.Errors)
			}
			if got := lists.Load(); got != c.resolvers {
				t.Errorf("items ran %d times, want %d", got, c.resolvers)
			}
		})
	}
}
