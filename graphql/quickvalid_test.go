package graphql_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// quickSchema is a schema with every kind of type the fast path of Validate
// judges: self- and mutually-referring objects, enums, nested and
// self-referring input objects with required fields and defaults, lists of
// lists, non-null, a custom scalar and a mutation.
func quickSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	color := &graphql.Enum{Name: "Color", Values: []graphql.EnumValue{{Name: "RED", Value: "red"}, {Name: "GREEN", Value: "green"}}}
	stamp := &graphql.Scalar{Name: "Stamp",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) { return v, nil }}
	strict := &graphql.Scalar{Name: "Strict",
		Serialize: func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) {
			if _, ok := v.(string); !ok {
				return nil, errors.New("Strict wants a string")
			}
			return v, nil
		}}
	rng := &graphql.InputObject{Name: "Range", Fields: []graphql.InputField{
		{Name: "from", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "to", Type: graphql.Int, Default: 10},
		{Name: "colors", Type: graphql.NewList(graphql.NewNonNull(color))},
	}}
	nested := &graphql.InputObject{Name: "Nested"}
	nested.Fields = []graphql.InputField{
		{Name: "r", Type: rng}, {Name: "list", Type: graphql.NewList(graphql.NewList(graphql.Int))},
		{Name: "self", Type: nested}, {Name: "id", Type: graphql.ID}, {Name: "f", Type: graphql.Float},
		{Name: "s", Type: graphql.String}, {Name: "b", Type: graphql.Boolean}, {Name: "at", Type: stamp},
		{Name: "must", Type: graphql.NewNonNull(graphql.Boolean), Default: true},
	}
	var user, post *graphql.Object
	user = &graphql.Object{Name: "User", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.String},
			{Name: "friends", Type: graphql.NewList(user), Args: []graphql.Argument{
				{Name: "first", Type: graphql.Int, Default: 10}, {Name: "where", Type: nested}}},
			{Name: "best", Type: user},
			{Name: "color", Type: color},
			{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post)))},
		}
	})}
	post = &graphql.Object{Name: "Post", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.String, Args: []graphql.Argument{{Name: "upper", Type: graphql.Boolean}}},
			{Name: "author", Type: user},
			{Name: "replies", Type: graphql.NewList(post)},
		}
	})}
	none := func(fields graphql.Fields) graphql.Fields {
		for i := range fields {
			fields[i].Resolve = constant(nil)
		}
		return fields
	}
	query := &graphql.Object{Name: "Query", Fields: none(graphql.Fields{
		{Name: "user", Type: user, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}},
		{Name: "users", Type: graphql.NewList(user), Args: []graphql.Argument{
			{Name: "ids", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.ID)))}}},
		{Name: "search", Type: graphql.NewList(post), Args: []graphql.Argument{
			{Name: "r", Type: graphql.NewNonNull(rng)}, {Name: "n", Type: nested},
			{Name: "c", Type: color, Default: "red"}, {Name: "at", Type: stamp}}},
		{Name: "a", Type: graphql.String},
		{Name: "b", Type: graphql.String, Args: []graphql.Argument{{Name: "x", Type: graphql.Int}}},
		{Name: "matrix", Type: graphql.Int, Args: []graphql.Argument{
			{Name: "m", Type: graphql.NewList(graphql.NewList(graphql.NewNonNull(graphql.Int)))}}},
		{Name: "f", Type: graphql.Float, Args: []graphql.Argument{{Name: "v", Type: graphql.Float}, {Name: "id", Type: graphql.ID}}},
		{Name: "strict", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: graphql.NewList(strict)},
			{Name: "w", Type: graphql.NewList(graphql.NewList(strict))}, {Name: "x", Type: strict}}},
	})}
	mutation := &graphql.Object{Name: "Mutation", Fields: none(graphql.Fields{
		{Name: "like", Type: post, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}},
	})}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// quickAccepted are valid documents the fast path must accept.
var quickAccepted = []string{
	`{ a }`,
	`{ a b }`,
	`query { a }`,
	`query Q { user(id: "1") { id name } }`,
	`{ user(id: 1) { id } }`,
	`query Q($id: ID!) { user(id: $id) { id best { name best { id } } } }`,
	`query Q($n: Int) { user(id: "1") { friends(first: $n) { id } } }`,
	`query Q($n: Int = 3) { user(id: "1") { friends(first: $n) { id } } }`,
	`query Q($n: Int!) { user(id: "1") { friends(first: $n) { id } } }`,
	`{ user(id: "1") { __typename id t: __typename } }`,
	`{ __typename }`,
	`{ x: a y: a a }`,
	`{ u: user(id: "1") { id } v: user(id: "2") { id } }`,
	`{ user(id: "1") { id } user(id: "1") { name } }`,
	`{ user(id: "1") { best { id } } user(id: "1") { best { name } } }`,
	`{ user(id: "1") { ...U } } fragment U on User { id name }`,
	`{ user(id: "1") { ...U ...U id } } fragment U on User { id name }`,
	`{ user(id: "1") { ...U } } fragment U on User { best { ...V } } fragment V on User { id }`,
	`query Q($v: Boolean!) { user(id: "1") { ...U } } fragment U on User { id @include(if: $v) name @skip(if: true) }`,
	`query Q($v: Boolean!, $w: Boolean!) { a @skip(if: $v) @include(if: $w) }`,
	`{ user(id: "1") { ... on User { id } ... { name } ... @include(if: false) { color } } }`,
	`query A { a } query B { b }`,
	`query Q($n: Int) { user(id: "1") { friends(first: $n) { id } } } query Q2 { a }`,
	`query A { ...Q } query B { ...Q } fragment Q on Query { a }`,
	`query A($x: Int) { b(x: $x) } query B($x: Int) { ...Q } fragment Q on Query { b(x: $x) }`,
	`mutation { like(id: "1") { id title(upper: true) } }`,
	`mutation M($id: ID!) { like(id: $id) { author { posts { id } } } }`,
	`{ search(r: {from: 1}) { id } }`,
	`{ search(r: {from: 1, to: null, colors: [RED, GREEN]}, c: GREEN) { id } }`,
	`{ search(r: {from: 1, colors: RED}) { id } }`,
	`query Q($r: Range!) { search(r: $r) { id } }`,
	`query Q($c: [Color!]) { search(r: {from: 1, colors: $c}) { id } }`,
	`query Q($c: Color!) { search(r: {from: 1, colors: [$c]}) { id } }`,
	`query Q($r: Range! = {from: 2, colors: [RED]}) { search(r: $r) { id } }`,
	`{ search(r: {from: 1}, n: {list: [[1, 2], [], null, 3], self: {self: {id: "x", f: 1.5, s: """block""", b: false}}}) { id } }`,
	`{ matrix(m: [[1], [2, 3]]) matrix2: matrix(m: 7) }`,
	`{ users(ids: ["1", 2]) { id } }`,
	`{ users(ids: "1") { id } }`,
	`{ f(v: 1) g: f(v: 2.5e3, id: 9007199254740993) }`,
	`{ b(x: -2147483648) c: b(x: 2147483647) }`,
	`{ user(id: "1") { posts { replies { replies { author { color } } } } } }`,
	`query Q($s: String = "x", $b: Boolean = true, $f: Float = 1, $id: ID = 5, $l: [[Int]] = [[1]]) {
		search(r: {from: 1}, n: {s: $s, b: $b, f: $f, id: $id, list: $l}) { id } }`,
	`{ a ... on Query { a } }`,
	`{ ...F } fragment F on Query { x: a } `,
	`{ search(r: {from: 1}, n: {r: {from: 1}, must: false}) { id } }`,
	`{ search(r: {from: 1}, n: {at: null}) { id } }`,
	`{ strict(v: []) }`,
	`{ strict(v: [null], w: [[], null, [null]]) }`,
	`query Q($v: [Strict] = []) { strict(v: $v) }`,
}

// quickDeclined are documents the fast path must leave to the full rules:
// want is true for those the full rules accept (valid documents outside the
// fast path's subset), false for the invalid ones, one per rule at least.
var quickDeclined = []struct {
	query string
	valid bool
}{
	// outside the subset, yet valid
	{`{ __schema { queryType { name } } }`, true},
	{`{ __type(name: "User") { name } }`, true},
	{`{ search(r: {from: 1}, at: "2026") { id } }`, true},
	{`{ search(r: {from: 1}, n: {at: 5}) { id } }`, true},
	{`{ strict(v: ["a"], w: [["b"], "c"], x: "d") }`, true},
	{`{ strict(v: "a", w: "b") }`, true},
	{`{ strict(v: [1]) }`, false},
	{`{ strict(v: 1) }`, false},
	{`{ strict(w: [[1]]) }`, false},
	{`{ strict(w: [1]) }`, false},
	{`{ strict(w: 1) }`, false},
	{`{ strict(x: 1) }`, false},
	{`query Q($n: Nested = ` + strings.Repeat(`{self: `, 200) + `{s: "deep"}` + strings.Repeat(`}`, 200) +
		`) { search(r: {from: 1}, n: $n) { id } }`, true},
	{`query Q($v: Boolean = true) { a @skip(if: $v) }`, true},
	{`query Q($id: ID) { user(id: $id) { id } }`, false},
	// operations
	{`subscription { a }`, false},
	{`{ a } { b }`, false},
	{`query A { a } query A { b }`, false},
	{`query A { a } { b }`, false},
	{`mutation { a }`, false},
	{`query @skip(if: true) { a }`, false},
	// fields
	{`{ nope }`, false},
	{`{ user(id: "1") }`, false},
	{`{ a { b } }`, false},
	{`{ user(id: "1") { id { x } } }`, false},
	{`{ __typename(x: 1) }`, false},
	{`{ __typename { a } }`, false},
	{`{ user(id: "1") { friends { nope } } }`, false},
	// arguments
	{`{ user { id } }`, false},
	{`{ user(id: "1", id: "2") { id } }`, false},
	{`{ user(id: "1", x: 1) { id } }`, false},
	{`{ user(id: null) { id } }`, false},
	{`{ b(x: 2147483648) }`, false},
	{`{ b(x: 99999999999999999999) }`, false},
	{`{ b(x: "1") }`, false},
	{`{ b(x: 1.5) }`, false},
	{`{ b(x: true) }`, false},
	{`{ b(x: [1]) }`, false},
	{`{ b(x: RED) }`, false},
	{`{ f(v: "1") }`, false},
	{`{ f(v: true) }`, false},
	{`{ f(id: 1.5) }`, false},
	{`{ f(id: true) }`, false},
	{`{ f(v: 1e400) }`, false},
	{`{ user(id: "1") { title: name(upper: 1) } }`, false},
	{`{ users(ids: [null]) { id } }`, false},
	{`{ users(ids: null) { id } }`, false},
	{`{ matrix(m: [[null]]) }`, false},
	// enums
	{`{ search(r: {from: 1}, c: BLUE) { id } }`, false},
	{`{ search(r: {from: 1}, c: "RED") { id } }`, false},
	{`{ search(r: {from: 1}, c: red) { id } }`, false},
	// input objects
	{`{ search(r: {}) { id } }`, false},
	{`{ search(r: {from: null}) { id } }`, false},
	{`{ search(r: {from: 1, from: 2}) { id } }`, false},
	{`{ search(r: {from: 1, nope: 2}) { id } }`, false},
	{`{ search(r: 1) { id } }`, false},
	{`{ search(r: [{from: 1}]) { id } }`, false},
	{`{ search(r: {from: 1, colors: [RED, null]}) { id } }`, false},
	{`{ search(r: {from: 1}, n: {must: null}) { id } }`, false},
	{`{ search(r: {from: 1}, n: {self: {list: [["x"]]}}) { id } }`, false},
	// variables
	{`query Q($x: Int) { a }`, false},
	{`{ b(x: $x) }`, false},
	{`query Q($x: Int, $x: Int) { b(x: $x) }`, false},
	{`query Q($x: User) { a }`, false},
	{`query Q($x: Nope) { a }`, false},
	{`query Q($x: String) { b(x: $x) }`, false},
	{`query Q($x: [Int]) { b(x: $x) }`, false},
	{`query Q($x: Int) { users(ids: [$x]) { id } }`, false},
	{`query Q($x: [ID]) { users(ids: $x) { id } }`, false},
	{`query Q($x: Int = "a") { b(x: $x) }`, false},
	{`query Q($x: Int = 2147483648) { b(x: $x) }`, false},
	{`query Q($x: Boolean) { a @skip(if: $x) }`, false},
	{`query Q($x: Int @skip(if: true)) { b(x: $x) }`, false},
	{`query A($x: Int) { ...F } query B { ...F } fragment F on Query { b(x: $x) }`, false},
	// directives
	{`{ a @skip }`, false},
	{`{ a @skip(if: true) @skip(if: false) }`, false},
	{`{ a @skip(if: true, x: 1) }`, false},
	{`{ a @skip(if: "yes") }`, false},
	{`{ a @skip(if: null) }`, false},
	{`{ a @nope }`, false},
	{`{ a @deprecated }`, false},
	// fragments
	{`{ ...F }`, false},
	{`{ a } fragment F on Query { a }`, false},
	{`{ ...F } fragment F on Query { a } fragment F on Query { b }`, false},
	{`{ ...F } fragment F on Nope { a }`, false},
	{`{ ...F } fragment F on Color { a }`, false},
	{`{ ...F } fragment F on User { id }`, false},
	{`{ user(id: "1") { ... on Post { id } } }`, false},
	{`{ user(id: "1") { ... on Nope { id } } }`, false},
	{`{ ...F } fragment F on Query { ...G } fragment G on Query { ...F }`, false},
	{`{ ...F } fragment F on Query { ...F }`, false},
	{`{ ...F } fragment F on Query @skip(if: true) { a }`, false},
	// overlapping fields
	{`{ x: a x: b }`, false},
	{`{ b(x: 1) b(x: 2) }`, false},
	{`{ b(x: 1) b }`, false},
	{`query Q($x: Int) { b(x: $x) b(x: 1) }`, false},
	{`{ user(id: "1") { id } user(id: "2") { id } }`, false},
	{`{ user(id: "1") { best { x: id } } user(id: "1") { best { x: name } } }`, false},
	{`{ a ...F } fragment F on Query { a: b }`, false},
	{`{ user(id: "1") { ...U best { id } } } fragment U on User { best: friends { id } }`, false},
	{`{ search(r: {from: 1, to: 2}) { id } search(r: {to: 2, from: 1}) { id } }`, true},
}

func TestQuickValid(t *testing.T) {
	s := quickSchema(t)
	for _, q := range quickAccepted {
		doc, err := graphql.ParseQuery(q, 0)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if errs := s.FullRules(doc, graphql.ValidateOptions{}); len(errs) > 0 {
			t.Errorf("the rules refuse a document meant to be valid: %s\n%v", q, errs)
		}
		if !s.QuickValid(doc) {
			t.Errorf("fast path declined a valid document of its subset: %s", q)
		}
	}
	for _, c := range quickDeclined {
		doc, err := graphql.ParseQuery(c.query, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if errs := s.FullRules(doc, graphql.ValidateOptions{}); (len(errs) == 0) != c.valid {
			t.Errorf("the rules: %s: %v, want valid %v", c.query, errs, c.valid)
		}
		if s.QuickValid(doc) {
			t.Errorf("fast path accepted: %s", c.query)
		}
	}
}

// TestQuickValidMatchesRules checks the promise of the fast path on every
// document of the tests above and of the conformance corpus: whatever it
// accepts, the full rules accept, with introspection allowed or not.
func TestQuickValidMatchesRules(t *testing.T) {
	s := quickSchema(t)
	for _, q := range quickCorpus(t) {
		checkQuick(t, s, q)
	}
}

// FuzzQuickValid runs random documents through the fast path and the full
// rules: a document the fast path accepts must pass every rule.
func FuzzQuickValid(f *testing.F) {
	for _, q := range quickCorpus(f) {
		f.Add(q)
	}
	s := quickSchema(f)
	f.Fuzz(func(t *testing.T, query string) { checkQuick(t, s, query) })
}

func checkQuick(t *testing.T, s *graphql.Schema, query string) {
	t.Helper()
	doc, err := graphql.ParseQuery(query, 2000)
	if err != nil || !s.QuickValid(doc) {
		return
	}
	for _, private := range []bool{false, true} {
		if errs := s.FullRules(doc, graphql.ValidateOptions{DisableIntrospection: private}); len(errs) > 0 {
			t.Fatalf("the fast path accepted what the rules refuse: %q\n%v", query, errs)
		}
	}
}

// quickCorpus is every document of the tables above and the queries of the
// conformance corpus.
func quickCorpus(tb testing.TB) []string {
	tb.Helper()
	out := append([]string(nil), quickAccepted...)
	for _, c := range quickDeclined {
		out = append(out, c.query)
	}
	files, err := filepath.Glob(filepath.Join("conformance", "testdata", "corpus", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("conformance corpus: %v (%d files)", err, len(files))
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		var cases []struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(b, &cases); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, c := range cases {
			if strings.TrimSpace(c.Query) != "" {
				out = append(out, c.Query)
			}
		}
	}
	return out
}
