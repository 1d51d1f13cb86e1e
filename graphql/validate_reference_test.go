package graphql_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// boomSchema has a custom scalar whose parser panics on "boom" (a server
// bug), reachable from arguments directly, in lists and in input objects,
// next to lists of built-in scalars.
func boomSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	boom := &graphql.Scalar{Name: "Boom",
		Serialize: func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) {
			if v == "boom" {
				panic("Boom parser exploded")
			}
			return v, nil
		}}
	color := &graphql.Enum{Name: "Hue", Values: []graphql.EnumValue{{Name: "RED"}, {Name: "BLUE"}}}
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{
		{Name: "b", Type: boom}, {Name: "l", Type: graphql.NewList(graphql.NewList(graphql.Int))},
		{Name: "need", Type: graphql.NewNonNull(graphql.String)}, {Name: "h", Type: color},
	}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "p", Type: graphql.Int, Args: []graphql.Argument{{Name: "v", Type: graphql.NewList(boom)},
			{Name: "n", Type: graphql.NewList(graphql.NewList(graphql.Int))}, {Name: "i", Type: graphql.NewList(in)},
			{Name: "b", Type: boom}}, Resolve: constant(1)},
		{Name: "q", Type: graphql.Int, Args: []graphql.Argument{{Name: "x", Type: graphql.Int},
			{Name: "s", Type: graphql.NewList(graphql.NewNonNull(graphql.String))}, {Name: "h", Type: graphql.NewList(color)},
			{Name: "f", Type: graphql.NewList(graphql.Float)}, {Name: "id", Type: graphql.NewList(graphql.ID)}}, Resolve: constant(1)},
	}}})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// docGen writes random documents for a schema: mostly well formed, with
// faults of every kind the value rules report, long lists of correct items
// around faulty ones, variables, fragments, and fields that share a
// response key with list arguments (which OverlappingFieldsCanBeMerged
// compares).
type docGen struct {
	r      *rand.Rand
	schema *ast.Schema
	b      strings.Builder
	vars   []string // variables of the operation being written
	frags  []string // fragments to define, with their type conditions
	fragOn []string
	bad    float64 // chance of a faulty value
	// constant: the value being written is a default, without variables.
	constant bool
}

func (g *docGen) doc() string {
	g.b.Reset()
	g.frags, g.fragOn = nil, nil
	for i := range 1 + g.r.IntN(2) {
		g.operation(i)
	}
	for i := 0; i < len(g.frags); i++ { // a fragment may ask for more
		fmt.Fprintf(&g.b, "\nfragment %s on %s ", g.frags[i], g.fragOn[i])
		g.vars = nil
		g.selections(g.schema.Types[g.fragOn[i]], 0)
	}
	return g.b.String()
}

func (g *docGen) operation(i int) {
	g.vars = nil
	kind := "query"
	if g.r.IntN(20) == 0 {
		kind = "subscription"
	}
	fmt.Fprintf(&g.b, "%s Q%d", kind, i)
	if g.r.IntN(3) == 0 {
		g.b.WriteString("(")
		for j := range 1 + g.r.IntN(3) {
			name := "v" + strconv.Itoa(j)
			g.vars = append(g.vars, name)
			typ := g.inputType()
			fmt.Fprintf(&g.b, "$%s: %s", name, typ)
			if g.r.IntN(3) == 0 {
				t, err := g.parseType(typ)
				if err == nil {
					g.b.WriteString(" = ")
					g.constant = true
					g.value(t, 0)
					g.constant = false
				}
			}
			g.b.WriteString(" ")
		}
		g.b.WriteString(")")
	}
	g.b.WriteString(" ")
	g.selections(g.schema.Query, 0)
	g.b.WriteString("\n")
}

func (g *docGen) parseType(s string) (*ast.Type, error) {
	var parse func(s string) (*ast.Type, string)
	parse = func(s string) (*ast.Type, string) {
		var t *ast.Type
		if strings.HasPrefix(s, "[") {
			elem, rest := parse(s[1:])
			t, s = &ast.Type{Elem: elem}, rest[1:]
		} else {
			end := strings.IndexAny(s, "]!")
			if end < 0 {
				end = len(s)
			}
			t, s = &ast.Type{NamedType: s[:end]}, s[end:]
		}
		if strings.HasPrefix(s, "!") {
			t.NonNull, s = true, s[1:]
		}
		return t, s
	}
	t, rest := parse(s)
	if rest != "" {
		return nil, fmt.Errorf("type %q: %q left", s, rest)
	}
	return t, nil
}

// inputType returns a random input type, sometimes wrapped in lists and
// non-null.
func (g *docGen) inputType() string {
	var names []string
	for name, d := range g.schema.Types {
		if d.IsInputType() && !strings.HasPrefix(name, "__") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	t := names[g.r.IntN(len(names))]
	for g.r.IntN(3) == 0 {
		if g.r.IntN(2) == 0 {
			t += "!"
		}
		t = "[" + t + "]"
	}
	if g.r.IntN(3) == 0 {
		t += "!"
	}
	return t
}

func (g *docGen) selections(parent *ast.Definition, depth int) {
	g.b.WriteString("{")
	n := 1 + g.r.IntN(3)
	for range n {
		g.b.WriteString(" ")
		switch k := g.r.IntN(12); {
		case parent == nil || len(parent.Fields) == 0 || k == 0:
			g.b.WriteString([]string{"nope", "__typename", "a"}[g.r.IntN(3)])
		case k == 1 && depth < 3:
			g.b.WriteString("... ")
			if g.r.IntN(2) == 0 {
				g.b.WriteString("on " + parent.Name + " ")
			}
			g.selections(parent, depth+1)
		case k == 2 && depth < 3:
			name := "F" + strconv.Itoa(len(g.frags))
			if len(g.frags) > 0 && g.r.IntN(2) == 0 {
				name = g.frags[g.r.IntN(len(g.frags))]
			} else if len(g.frags) < 3 {
				g.frags, g.fragOn = append(g.frags, name), append(g.fragOn, parent.Name)
			}
			g.b.WriteString("..." + name)
		default:
			g.field(parent, depth)
		}
	}
	g.b.WriteString(" }")
}

func (g *docGen) field(parent *ast.Definition, depth int) {
	f := parent.Fields[g.r.IntN(len(parent.Fields))]
	if strings.HasPrefix(f.Name, "__") {
		f = parent.Fields[0]
	}
	if g.r.IntN(3) == 0 {
		g.b.WriteString([]string{"k", "m"}[g.r.IntN(2)] + ": ")
	}
	g.b.WriteString(f.Name)
	if len(f.Arguments) > 0 && g.r.IntN(5) > 0 {
		g.b.WriteString("(")
		for i, a := range f.Arguments {
			if g.r.IntN(3) == 0 && !a.Type.NonNull && i > 0 {
				continue
			}
			name := a.Name
			if g.r.IntN(40) == 0 {
				name = "unknown"
			}
			g.b.WriteString(name + ": ")
			g.value(a.Type, 0)
			g.b.WriteString(" ")
		}
		g.b.WriteString(")")
	}
	if g.r.IntN(15) == 0 {
		g.b.WriteString(" @skip(if: ")
		g.value(&ast.Type{NamedType: "Boolean", NonNull: true}, 0)
		g.b.WriteString(")")
	}
	if d := g.schema.Types[f.Type.Name()]; d != nil && (d.Kind == ast.Object || d.Kind == ast.Interface) && depth < 3 {
		g.b.WriteString(" ")
		g.selections(d, depth+1)
	}
}

// value writes a literal for a place of type t: a correct one, or with
// chance g.bad a faulty or odd one.
func (g *docGen) value(t *ast.Type, depth int) {
	if g.r.Float64() < g.bad || depth > 6 {
		// Of the wrong type, or odd; rarely a literal that does not read,
		// or a variable, which keep the whole argument from being trimmed.
		odd := []string{`"s"`, `1`, `-7`, `1.5`, `true`, `null`, `RED`, `nope`, `2147483648`, `[1]`, `[]`, `{}`,
			`{from: 1}`, `[[1], 2]`, `[null]`, `"RED"`, `REDD`, `GREN`, `{fro: 1, nede: "x"}`, `{from: 1, from: 2}`}
		if g.r.IntN(5) == 0 {
			odd = []string{`99999999999999999999`, `1e400`, `"boom"`, `["boom"]`}
			if !g.constant {
				odd = append(odd, "$undefined")
			}
			if len(g.vars) > 0 && !g.constant {
				odd = append(odd, "$"+g.vars[g.r.IntN(len(g.vars))])
			}
		}
		g.b.WriteString(odd[g.r.IntN(len(odd))])
		return
	}
	if !t.NonNull && g.r.IntN(12) == 0 {
		g.b.WriteString("null")
		return
	}
	if t.Elem != nil {
		if g.r.IntN(6) == 0 {
			g.value(t.Elem, depth+1) // a list of one
			return
		}
		n := g.r.IntN(4)
		if g.r.IntN(4) == 0 {
			n = 10 + g.r.IntN(40)
		}
		g.b.WriteString("[")
		for i := range n {
			if i > 0 {
				g.b.WriteString(", ")
			}
			g.value(t.Elem, depth+1)
		}
		g.b.WriteString("]")
		return
	}
	d := g.schema.Types[t.NamedType]
	switch {
	case d == nil:
		g.b.WriteString("null")
	case d.Kind == ast.Enum:
		g.b.WriteString(d.EnumValues[g.r.IntN(len(d.EnumValues))].Name)
	case d.Kind == ast.InputObject:
		g.b.WriteString("{")
		for _, f := range d.Fields {
			if !f.Type.NonNull && g.r.IntN(2) == 0 || f.Type.NonNull && g.r.IntN(30) == 0 {
				continue
			}
			g.b.WriteString(" " + f.Name + ": ")
			g.value(f.Type, depth+1)
		}
		g.b.WriteString(" }")
	default:
		switch d.Name {
		case "Int":
			g.b.WriteString(strconv.Itoa(g.r.IntN(2000) - 1000))
		case "Float":
			g.b.WriteString([]string{"1.5", "2", "-0.25e3"}[g.r.IntN(3)])
		case "String":
			g.b.WriteString([]string{`"x"`, `"""block"""`, `"\n"`}[g.r.IntN(3)])
		case "Boolean":
			g.b.WriteString([]string{"true", "false"}[g.r.IntN(2)])
		case "ID":
			g.b.WriteString([]string{`"7"`, `7`}[g.r.IntN(2)])
		default: // a custom scalar
			g.b.WriteString([]string{`"x"`, `5`, `{a: [1, 2]}`, `[1, "y"]`}[g.r.IntN(4)])
		}
	}
}

// suggestions orders the names of a message's "Did you mean" list: some of
// gqlparser's rules list names of equal distance in the order of a map,
// which differs from run to run.
func suggestions(msg string) string {
	head, list, ok := strings.Cut(msg, " Did you mean ")
	if !ok {
		return msg
	}
	names := strings.FieldsFunc(strings.TrimSuffix(list, "?"), func(r rune) bool { return r == ',' || r == ' ' })
	names = slices.DeleteFunc(names, func(s string) bool { return s == "or" })
	slices.Sort(names)
	return head + " Did you mean " + strings.Join(names, " ") + "?"
}

// sameErrors reports how got differs from want, or "".
func sameErrors(got, want gqlerror.List) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d errors, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		if suggestions(g.Message) != suggestions(w.Message) || !reflect.DeepEqual(g.Locations, w.Locations) || g.Rule != w.Rule ||
			!reflect.DeepEqual(g.Extensions, w.Extensions) || (g.Err == nil) != (w.Err == nil) {
			return fmt.Sprintf("error %d:\n got %s %v (%s)\nwant %s %v (%s)", i, g.Message, g.Locations, g.Rule, w.Message, w.Locations, w.Rule)
		}
	}
	return ""
}

// checkLikeReference validates query with Validate, under several caps,
// and with ReferenceValidate, the old path, and fails unless Validate
// returns the reference's errors cut to the cap (or the same fault), and
// leaves the document as it was.
func checkLikeReference(t *testing.T, s *graphql.Schema, query string) {
	t.Helper()
	printed := func(doc *ast.QueryDocument) string {
		var b strings.Builder
		formatter.NewFormatter(&b).FormatQueryDocument(doc)
		return b.String()
	}
	for _, private := range []bool{false, true} {
		ref, err := graphql.ParseQuery(query, 0)
		if err != nil {
			return
		}
		wantErrs, wantFault := s.ReferenceValidate(ref, graphql.ValidateOptions{DisableIntrospection: private})
		for _, max := range []int{0, 1, 2, 7, 100} {
			doc, _ := graphql.ParseQuery(query, 0)
			before := printed(doc)
			gotErrs, gotFault := s.Validate(doc, graphql.ValidateOptions{DisableIntrospection: private, MaxErrors: max})
			if after := printed(doc); after != before {
				t.Fatalf("Validate changed the document %q:\nbefore %s\nafter  %s", query, before, after)
			}
			if (gotFault == nil) != (wantFault == nil) {
				t.Fatalf("%q (private %v, max %d): fault %v, want %v (errors %v)", query, private, max, gotFault, wantFault, gotErrs)
			}
			if gotFault != nil {
				g, gok := gotFault.(*errcode.PanicError)
				w, wok := wantFault.(*errcode.PanicError)
				if !gok || !wok || g.Text != w.Text {
					t.Fatalf("%q: fault %v, want %v", query, gotFault, wantFault)
				}
				continue
			}
			want := wantErrs
			if max > 0 && len(want) > max {
				want = want[:max]
			}
			if d := sameErrors(gotErrs, want); d != "" {
				t.Fatalf("%q (private %v, max %d): %s", query, private, max, d)
			}
		}
	}
}

// valueCases are documents of quickSchema for each branch of
// ValuesOfCorrectType, inside long lists and out.
var valueCases = []string{
	`query($v: ID = 99999999999999999999) { users(ids: [$v, "1"]) { id } }`,
	`query($v: ID = 99999999999999999999) { users(ids: $v) { id } }`,
	`query($v: [Int] = [1, 99999999999999999999]) { matrix(m: [$v, [1, 2, 3]]) }`,
	`query($v: Range = {from: 1e400}) { search(r: {from: 1}, n: {r: $v, list: [[1], [2], [3]]}) { id } }`,
	`query($v: Int) { search(r: {from: $v, to: 99999999999999999999}) { id } }`,
	`{ search(r: {from: 1}, c: REDD) { id } }`,
	`{ search(r: {from: 1}, c: "RED") { id } }`,
	`{ search(r: {from: 1}, c: "GREN") { id } }`,
	`{ search(r: {from: 1, colors: [RED, REDD, "GREEN", GREEN, GREN, 1, null]}) { id } }`,
	`{ search(r: {from: 1, fro: 2, colrs: [RED]}) { id } }`,
	`{ search(r: {fro: 2}) { id } }`,
	`{ search(r: {from: 1, from: 2}) { id } }`,
	`{ search(r: [{from: 1}, {to: 2}, {from: 1, to: 2}]) { id } }`,
	`{ b(x: [1, 2]) b2: b(x: {a: 1}) b3: b(x: RED) b4: b(x: "1") b5: b(x: true) b6: b(x: 1.5) }`,
	`{ user(id: null) { id } users(ids: [null, "1"]) { id } }`,
	`{ f(v: 99999999999999999999, id: 99999999999999999999) }`,
	`{ f(v: 1e400, id: 1.5) f2: f(v: "1", id: true) f3: f(v: RED, id: [1]) }`,
	`{ b(x: 99999999999999999999) b2: b(x: 2147483648) b3: b(x: -2147483649) }`,
	`{ matrix(m: [[1, 2], [99999999999999999999], [3, 4], [null], null, [1.5]]) }`,
	`{ matrix(m: [` + strings.Repeat(`[1, 2], `, 30) + `[99999999999999999999]]) }`,
	`{ matrix(m: [` + strings.Repeat(`[1, 2], `, 30) + `[a]]) m2: matrix(m: [` + strings.Repeat(`[1, 2], `, 30) + `[a]]) }`,
	`{ matrix(m: [` + strings.Repeat(`[1, 2], `, 30) + `[a]]) matrix(m: [` + strings.Repeat(`[1, 2], `, 29) + `[1, 3], [a]]) }`,
	`{ search(r: {from: 1}, n: {list: [` + strings.Repeat(`[1], `, 20) + `["x"]], self: {list: [[1], [2], 3]}, id: 99999999999999999999, f: 99999999999999999999}) { id } }`,
	`{ search(r: {from: 1}, n: {must: null, s: 1, b: "true", at: 5}) { id } }`,
	`{ strict(v: [1, "a", null], w: [["a"], [1], 1]) }`,
	`query($b: Boolean = 1) { a @skip(if: $b) b @include(if: "yes") }`,
}

// TestValidateLikeReference checks that trimming list literals and
// stopping at MaxErrors change nothing Validate returns: on the documents
// of the quick tests and the conformance corpus, and on random documents
// with many faults, long lists, variables, fragments and overlapping
// fields, against three schemas.
func TestValidateLikeReference(t *testing.T) {
	testenv.SkipIfShort(t, "corpus-wide: the quick and conformance corpora and generated documents, each validated twice")
	schemas := map[string]*graphql.Schema{"quick": quickSchema(t), "boom": boomSchema(t), "hero": heroSchema(t)}
	for name, s := range schemas {
		t.Run(name, func(t *testing.T) {
			for _, q := range append(quickCorpus(t), valueCases...) {
				checkLikeReference(t, s, q)
			}
			var trimmed, many, faults int
			for seed := range uint64(300) {
				g := &docGen{r: rand.New(rand.NewPCG(seed, 7)), schema: s.AST(), bad: []float64{0, 0.01, 0.05, 0.3}[seed%4]}
				q := g.doc()
				doc, err := graphql.ParseQuery(q, 0)
				if err != nil {
					t.Fatalf("the generator wrote %q: %v", q, err)
				}
				if s.TrimmedLists(doc) > 0 {
					trimmed++
				}
				switch errs, fault := s.ReferenceValidate(doc, graphql.ValidateOptions{}); {
				case fault != nil:
					faults++
				case len(errs) > 7:
					many++
				}
				checkLikeReference(t, s, q)
			}
			t.Logf("%d random documents with lists to trim, %d with more than 7 errors, %d faults", trimmed, many, faults)
		})
	}
}

// FuzzValidateLikeReference runs arbitrary documents through Validate and
// through the old path (see checkLikeReference).
func FuzzValidateLikeReference(f *testing.F) {
	for _, q := range quickCorpus(f) {
		f.Add(q)
	}
	s := quickSchema(f)
	for seed := range uint64(20) {
		g := &docGen{r: rand.New(rand.NewPCG(seed, 7)), schema: s.AST(), bad: 0.05}
		f.Add(g.doc())
	}
	f.Fuzz(func(t *testing.T, query string) {
		if len(query) > 4000 {
			return
		}
		checkLikeReference(t, s, query)
	})
}
