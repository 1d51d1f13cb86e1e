package graphql_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

type label string

type LeafCode struct{ Code string }

type LeafExtra struct{ Extra string }

// leafRow has a struct field of every kind the direct leaf path reads, and
// some it leaves to the general path.
type leafRow struct {
	LeafCode   // embedded by value: read at its offset
	*LeafExtra // embedded pointer: the general path
	ID         string
	Name       label
	Small      int8
	Mid        int32
	Big        int64
	Plain      int
	On         bool
	Tags       []string
	Must       []string
	Labels     []label
	Title      string `json:"heading"`
	Count      int    // String from an int: the general path
	Flag       bool   // String from a bool: the general path
}

// leafRowB holds some of leafRow's fields at other offsets and of other
// sizes: a plan met first with one type must read the other correctly.
type leafRowB struct {
	On    bool
	Tags  []label
	Plain int16
	ID    label
	Name  string `json:"name"`
}

func leafSchema(t *testing.T) *graphql.Schema {
	t.Helper()
	row := &graphql.Object{Name: "Row", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.String},
		{Name: "small", Type: graphql.Int},
		{Name: "mid", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "big", Type: graphql.Int},
		{Name: "plain", Type: graphql.Int},
		{Name: "on", Type: graphql.NewNonNull(graphql.Boolean)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "must", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String)))},
		{Name: "labels", Type: graphql.NewList(graphql.ID)},
		{Name: "heading", Type: graphql.String},
		{Name: "code", Type: graphql.String},
		{Name: "extra", Type: graphql.String},
		{Name: "count", Type: graphql.String},
		{Name: "flag", Type: graphql.String},
	}}
	rows := []*leafRow{
		{LeafCode: LeafCode{"c1"}, ID: "1", Name: "Ada \"quoted\" \\ \n", Small: -8, Mid: math.MaxInt32, Big: 7, Plain: -1,
			On: true, Tags: []string{"a", "b\tc", "ünï"}, Must: []string{"m"}, Labels: []label{"x", "y"}, Title: "plain title here",
			Count: 3, Flag: true, LeafExtra: &LeafExtra{"e"}},
		nil,
		{ID: "3", Big: math.MaxInt32 + 1, Must: nil, Tags: []string{}, Title: strings.Repeat("long ", 20)},
		{ID: "4", Small: math.MinInt8, Mid: math.MinInt32, Big: math.MinInt32, Tags: nil, Must: []string{}, Labels: nil},
	}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "rows", Type: graphql.NewList(row), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return rows, nil
		}},
		{Name: "mixed", Type: graphql.NewList(row), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return []any{rows[0], &leafRowB{On: true, Tags: []label{"b1", "b2"}, Plain: -300, ID: "b", Name: "B"}, rows[2], (*leafRowB)(nil)}, nil
		}},
		{Name: "values", Type: graphql.NewList(graphql.NewNonNull(row)), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			out := make([]leafRow, 0, len(rows))
			for _, r := range rows {
				if r != nil {
					out = append(out, *r)
				}
			}
			return out, nil
		}},
	}}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	return s
}

// passTracer traces nothing and allocates nothing; with TraceDefaultFields
// it sends every field without a resolver through the general path.
type passTracer struct{}

func (passTracer) StartRequest(ctx context.Context) context.Context { return ctx }
func (passTracer) Phase(context.Context, graphql.PhaseInfo)         {}
func (passTracer) StartField(ctx context.Context, _ graphql.ResolveInfo) context.Context {
	return ctx
}
func (passTracer) EndField(context.Context, graphql.ResolveInfo, error) {}
func (passTracer) EndRequest(context.Context, graphql.RequestInfo)      {}

// TestDirectLeafMatchesGeneral executes the same documents with the direct
// leaf path and, with every default field traced, without it, under every
// response limit that cuts the answer somewhere, and wants the same bytes.
func TestDirectLeafMatchesGeneral(t *testing.T) {
	s := leafSchema(t)
	const fields = "id name small mid big plain on tags must labels heading code extra count flag"
	for _, query := range []string{
		"{ rows { " + fields + " } }",
		"{ values { " + fields + " } }",
		"{ rows { tags must } values { labels tags } }",
		"{ mixed { id name plain on tags } rows { id name plain on tags } }",
	} {
		op := prepare(t, s, query)
		run := func(general bool, limit int) string {
			p := graphql.ExecParams{MaxResponseBytes: limit}
			if general {
				p.Tracer, p.TraceDefaultFields = passTracer{}, true
			}
			res, err := op.Execute(context.Background(), p)
			if err != nil {
				t.Fatalf("execute %s: %v", query, err)
			}
			out, _ := res.MarshalJSON()
			return string(out)
		}
		full := run(false, 0)
		if want := run(true, 0); full != want {
			t.Fatalf("%s:\ndirect  %s\ngeneral %s", query, full, want)
		}
		if strings.Contains(query, "big") != strings.Contains(full, `"errors"`) {
			t.Fatalf("%s: an error only where an Int is out of range: %s", query, full)
		}
		for limit := 1; limit <= len(full); limit++ {
			if got, want := run(false, limit), run(true, limit); got != want {
				t.Fatalf("%s, limit %d:\ndirect  %s\ngeneral %s", query, limit, got, want)
			}
		}
	}
}

// TestDirectLeafApplies checks which fields the direct path writes itself,
// so that the comparison above is not between two runs of the general
// path.
func TestDirectLeafApplies(t *testing.T) {
	s := leafSchema(t)
	row := &leafRow{LeafCode: LeafCode{"c"}, ID: "7", Name: "n", Small: 1, Mid: 2, Big: math.MaxInt32 + 1, Plain: 3, On: true,
		Tags: []string{"t"}, Labels: []label{"l"}, Title: "h", Count: 4, Flag: true}
	for _, c := range []struct {
		field, want string
		direct      bool
	}{
		{"id", `"7"`, true}, {"name", `"n"`, true}, {"small", "1", true}, {"mid", "2", true}, {"plain", "3", true},
		{"on", "true", true}, {"tags", `["t"]`, true}, {"must", "[]", true}, {"labels", `["l"]`, true},
		{"heading", `"h"`, true}, {"code", `"c"`, true},
		{"big", "", false},   // out of Int's range: the general path reports it
		{"extra", "", false}, // through an embedded pointer
		{"count", "", false}, // String from an int
		{"flag", "", false},  // String from a bool
	} {
		got, direct := s.DirectLeaf("Row", c.field, row)
		if direct != c.direct || got != c.want {
			t.Errorf("Row.%s: direct path %v writing %q, want %v writing %q", c.field, direct, got, c.direct, c.want)
		}
	}
	if got, direct := s.DirectLeaf("Row", "id", leafRow{ID: "8"}); direct {
		t.Errorf("Row.id of a struct value: the direct path wrote %q; it reads through pointers only", got)
	}
	if got, direct := s.DirectLeaf("Row", "id", (*leafRow)(nil)); direct {
		t.Errorf("Row.id of a nil pointer: the direct path wrote %q", got)
	}
}

// TestDirectLeafConcurrent executes one prepared operation from many
// goroutines at once, so that the first executions race to fill in the
// plan's direct reads (go test -race checks the publication).
func TestDirectLeafConcurrent(t *testing.T) {
	s := leafSchema(t)
	query := "{ mixed { id name plain on tags } rows { id name plain on tags must } }"
	want := s.Do(context.Background(), graphql.Request{Query: query})
	wantJSON, _ := want.MarshalJSON()
	op := prepare(t, s, query)
	var wg sync.WaitGroup
	got := make([]string, 8)
	for g := range got {
		wg.Go(func() {
			for range 50 {
				res, err := op.Execute(context.Background(), graphql.ExecParams{})
				if err != nil {
					got[g] = err.Error()
					return
				}
				out, _ := res.MarshalJSON()
				if got[g] = string(out); got[g] != string(wantJSON) {
					return
				}
			}
		})
	}
	wg.Wait()
	for g, out := range got {
		if out != string(wantJSON) {
			t.Errorf("goroutine %d: %s, want %s", g, out, wantJSON)
		}
	}
}
