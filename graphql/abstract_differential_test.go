package graphql_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/graphqljs"
)

// The schema checks of interfaces and unions are held to graphql-js's
// validateSchema on random schemas: interfaces implementing interfaces,
// objects implementing them with fields copied or changed (types made
// non-null, changed, subtyped; arguments dropped, retyped, added), unions
// with members missing or twice. Each is built with NewSchema and, as SDL,
// with graphql-js; both must accept or refuse it, with as many errors.

// genRef is a field or argument type: a named type, maybe in a list,
// maybe non-null inside and out.
type genRef struct {
	name                string
	list, nonNull, item bool
}

func (r genRef) sdl() string {
	s := r.name
	if r.list {
		if r.item {
			s += "!"
		}
		s = "[" + s + "]"
	}
	if r.nonNull {
		s += "!"
	}
	return s
}

type genArg struct {
	name string
	typ  genRef
	def  bool // "= 1" for an Int
}

type genField struct {
	name string
	typ  genRef
	args []genArg
}

type genType struct {
	kind    string // "interface", "type" or "union"
	name    string
	fields  []genField
	ifaces  []string
	members []string
}

type genSchema struct {
	types  []*genType
	byName map[string]*genType
}

func (g *genSchema) add(t *genType) {
	g.types = append(g.types, t)
	g.byName[t.name] = t
}

var genArgPool = []genArg{
	{name: "x", typ: genRef{name: "String"}},
	{name: "y", typ: genRef{name: "String", nonNull: true}},
	{name: "z", typ: genRef{name: "Int", nonNull: true}, def: true},
	{name: "w", typ: genRef{name: "String", list: true}},
}

func newGenSchema(r *rand.Rand) *genSchema {
	g := &genSchema{byName: map[string]*genType{}}
	nI, nO, nU := 1+r.IntN(3), 1+r.IntN(4), r.IntN(3)
	var ifaceNames, objNames, named []string
	for i := range nI {
		ifaceNames = append(ifaceNames, fmt.Sprintf("I%d", i))
	}
	for i := range nO {
		objNames = append(objNames, fmt.Sprintf("O%d", i))
	}
	named = append(append(append(named, ifaceNames...), objNames...), "String", "ID", "Int")
	for i := range nU {
		named = append(named, fmt.Sprintf("U%d", i))
	}
	ref := func() genRef {
		return genRef{name: named[r.IntN(len(named))], list: r.IntN(4) == 0, nonNull: r.IntN(3) == 0, item: r.IntN(2) == 0}
	}
	newFields := func(n int) []genField {
		var fs []genField
		for i := range n {
			f := genField{name: string(rune('a' + i)), typ: ref()}
			for _, a := range genArgPool {
				if r.IntN(4) == 0 {
					f.args = append(f.args, a)
				}
			}
			fs = append(fs, f)
		}
		return fs
	}
	for _, name := range ifaceNames {
		n := 1 + r.IntN(3)
		if r.IntN(12) == 0 {
			n = 0
		}
		g.add(&genType{kind: "interface", name: name, fields: newFields(n)})
	}
	for _, name := range objNames {
		g.add(&genType{kind: "type", name: name})
	}
	// Interfaces of interfaces and of objects, and the fields they bring.
	implementer := func(t *genType) {
		for _, in := range ifaceNames {
			if r.IntN(3) == 0 || in == t.name && r.IntN(6) != 0 {
				continue
			}
			if in != t.name && r.IntN(2) == 0 {
				continue
			}
			t.ifaces = append(t.ifaces, in)
			if r.IntN(20) == 0 {
				t.ifaces = append(t.ifaces, in) // twice
			}
		}
		// Mostly name the interfaces' own interfaces too.
		for _, in := range append([]string(nil), t.ifaces...) {
			for _, anc := range g.byName[in].ifaces {
				if r.IntN(6) != 0 && !contains(t.ifaces, anc) {
					t.ifaces = append(t.ifaces, anc)
				}
			}
		}
		for _, in := range t.ifaces {
			for _, f := range g.byName[in].fields {
				if hasField(t.fields, f.name) {
					continue
				}
				t.fields = append(t.fields, mutateField(r, f, ref))
			}
		}
		if len(t.fields) == 0 && r.IntN(5) != 0 || r.IntN(4) == 0 {
			t.fields = append(t.fields, genField{name: "own" + t.name, typ: ref()})
		}
	}
	for _, t := range g.types {
		implementer(t)
	}
	for i := range nU {
		u := &genType{kind: "union", name: fmt.Sprintf("U%d", i)}
		for _, o := range objNames {
			if r.IntN(2) == 0 {
				u.members = append(u.members, o)
				if r.IntN(12) == 0 {
					u.members = append(u.members, o)
				}
			}
		}
		g.add(u)
	}
	return g
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasField(fs []genField, name string) bool {
	for _, f := range fs {
		if f.name == name {
			return true
		}
	}
	return false
}

// mutateField returns f as an implementation declares it: mostly the
// same, else changed in one way.
func mutateField(r *rand.Rand, f genField, ref func() genRef) genField {
	out := genField{name: f.name, typ: f.typ, args: append([]genArg(nil), f.args...)}
	switch r.IntN(14) {
	case 0:
		out.typ.nonNull = true
	case 1:
		out.typ = ref()
	case 2:
		if len(out.args) > 0 {
			out.args = out.args[1:]
		}
	case 3:
		if len(out.args) > 0 {
			out.args[0].typ.nonNull = !out.args[0].typ.nonNull
		}
	case 4:
		out.args = addArg(out.args, genArg{name: "req", typ: genRef{name: "ID", nonNull: true}})
	case 5:
		out.args = addArg(out.args, genArg{name: "opt", typ: genRef{name: "ID"}})
	case 6:
		if out.typ.list {
			out.typ.item = true
		}
	}
	return out
}

// addArg adds a to args unless one of its name is there (graphql-js's
// SDL rules, which refuse a name twice, are not the ones compared).
func addArg(args []genArg, a genArg) []genArg {
	for _, x := range args {
		if x.name == a.name {
			return args
		}
	}
	return append(args, a)
}

func (g *genSchema) sdl() string {
	var b strings.Builder
	b.WriteString("type Query {\n")
	for _, t := range g.types {
		fmt.Fprintf(&b, "  q%s: %s\n", t.name, t.name)
	}
	b.WriteString("}\n")
	for _, t := range g.types {
		if t.kind == "union" {
			b.WriteString("union " + t.name)
			if len(t.members) > 0 {
				b.WriteString(" = " + strings.Join(t.members, " | "))
			}
			b.WriteString("\n")
			continue
		}
		b.WriteString(t.kind + " " + t.name)
		if len(t.ifaces) > 0 {
			b.WriteString(" implements " + strings.Join(t.ifaces, " & "))
		}
		if len(t.fields) > 0 {
			b.WriteString(" {\n")
			for _, f := range t.fields {
				b.WriteString("  " + f.name)
				if len(f.args) > 0 {
					var args []string
					for _, a := range f.args {
						s := a.name + ": " + a.typ.sdl()
						if a.def {
							s += " = 1"
						}
						args = append(args, s)
					}
					b.WriteString("(" + strings.Join(args, ", ") + ")")
				}
				b.WriteString(": " + f.typ.sdl() + "\n")
			}
			b.WriteString("}")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// config builds the same schema with the package's types.
func (g *genSchema) config() graphql.SchemaConfig {
	named := map[string]graphql.NamedType{"String": graphql.String, "ID": graphql.ID, "Int": graphql.Int}
	for _, t := range g.types {
		switch t.kind {
		case "interface":
			named[t.name] = &graphql.Interface{Name: t.name}
		case "type":
			named[t.name] = &graphql.Object{Name: t.name}
		case "union":
			named[t.name] = &graphql.Union{Name: t.name}
		}
	}
	typ := func(r genRef) graphql.Type {
		var t graphql.Type = named[r.name]
		if r.list {
			if r.item {
				t = graphql.NewNonNull(t)
			}
			t = graphql.NewList(t)
		}
		if r.nonNull {
			t = graphql.NewNonNull(t)
		}
		return t
	}
	fields := func(fs []genField) graphql.Fields {
		out := graphql.Fields{}
		for _, f := range fs {
			gf := graphql.Field{Name: f.name, Type: typ(f.typ)}
			for _, a := range f.args {
				ga := graphql.Argument{Name: a.name, Type: typ(a.typ)}
				if a.def {
					ga.Default = 1
				}
				gf.Args = append(gf.Args, ga)
			}
			out = append(out, gf)
		}
		return out
	}
	var query graphql.Fields
	for _, t := range g.types {
		query = append(query, graphql.Field{Name: "q" + t.name, Type: named[t.name]})
		var ifaces []*graphql.Interface
		for _, in := range t.ifaces {
			ifaces = append(ifaces, named[in].(*graphql.Interface))
		}
		switch x := named[t.name].(type) {
		case *graphql.Interface:
			x.Fields, x.Interfaces = fields(t.fields), ifaces
		case *graphql.Object:
			x.Fields, x.Interfaces = fields(t.fields), ifaces
		case *graphql.Union:
			for _, m := range t.members {
				x.Types = append(x.Types, named[m].(*graphql.Object))
			}
		}
	}
	return graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: query}}
}

// problemForms reads the problems NewSchema and graphql-js report about
// abstract types into one canonical form each, so that both lists can be
// compared.
var problemForms = []struct {
	re   *regexp.Regexp
	form string
}{
	{regexp.MustCompile(`^graphql: (?:object|interface) (\w+) implements (\w+) but has no field (\w+)$`), "missing $1 $2.$3"},
	{regexp.MustCompile(`^Interface field (\w+)\.(\w+) expected but (\w+) does not provide it\.$`), "missing $3 $1.$2"},
	{regexp.MustCompile(`^graphql: field (\w+)\.(\w+) is of type (\S+), which does not fit (\w+)\.\w+ of type (\S+) \(`), "type $1.$2 $3 $4 $5"},
	{regexp.MustCompile(`^Interface field (\w+)\.(\w+) expects type (\S+) but (\w+)\.\w+ is type (\S+)\.$`), "type $4.$2 $5 $1 $3"},
	{regexp.MustCompile(`^graphql: field (\w+)\.(\w+) has no argument (\w+), which (\w+)\.\w+ has$`), "noarg $1.$2($3) $4"},
	{regexp.MustCompile(`^Interface field argument (\w+)\.(\w+)\((\w+):\) expected but (\w+)\.\w+ does not provide it\.$`), "noarg $4.$2($3) $1"},
	{regexp.MustCompile(`^graphql: argument (\w+)\.(\w+)\((\w+):\) is of type (\S+), but (\w+)\.\w+\(\w+:\) is of type (\S+);`), "argtype $1.$2($3) $4 $5 $6"},
	{regexp.MustCompile(`^Interface field argument (\w+)\.(\w+)\((\w+):\) expects type (\S+) but (\w+)\.\w+\(\w+:\) is type (\S+)\.$`), "argtype $5.$2($3) $6 $1 $4"},
	{regexp.MustCompile(`^graphql: field (\w+)\.(\w+) has the required argument (\w+), which (\w+)\.\w+ does not have;`), "extra $1.$2($3) $4"},
	{regexp.MustCompile(`^Object field (\w+)\.(\w+) includes required argument (\w+) that is missing from the Interface field (\w+)\.\w+\.$`), "extra $1.$2($3) $4"},
	{regexp.MustCompile(`^graphql: interface (\w+) implements itself$`), "self $1"},
	{regexp.MustCompile(`^Type (\w+) cannot implement itself because it would create a circular reference\.$`), "self $1"},
	{regexp.MustCompile(`^graphql: interface (\w+) cannot implement (\w+), which implements \w+: a cycle$`), "cycle $1 $2"},
	{regexp.MustCompile(`^Type (\w+) cannot implement (\w+) because it would create a circular reference\.$`), "cycle $1 $2"},
	{regexp.MustCompile(`^graphql: (?:object|interface) (\w+) implements (\w+), so it must also implement (\w+), which \w+ implements$`), "ancestor $1 $2 $3"},
	{regexp.MustCompile(`^Type (\w+) must implement (\w+) because it is implemented by (\w+)\.$`), "ancestor $1 $3 $2"},
	{regexp.MustCompile(`^graphql: (?:object|interface) (\w+) implements (\w+) twice$`), "twice $1 $2"},
	{regexp.MustCompile(`^Type (\w+) can only implement (\w+) once\.$`), "twice $1 $2"},
	{regexp.MustCompile(`^graphql: union (\w+) has no member types$`), "nomembers $1"},
	{regexp.MustCompile(`^Union type (\w+) must define one or more member types\.$`), "nomembers $1"},
	{regexp.MustCompile(`^graphql: union (\w+) lists (\w+) twice$`), "member $1 $2"},
	{regexp.MustCompile(`^Union type (\w+) can only include type (\w+) once\.$`), "member $1 $2"},
	{regexp.MustCompile(`^graphql: (?:object|interface) (\w+) has no fields$`), "nofields $1"},
	{regexp.MustCompile(`^Type (\w+) must define one or more fields\.$`), "nofields $1"},
}

// problemForm returns msg's canonical form, or msg itself when it has
// none.
func problemForm(msg string) string {
	for _, p := range problemForms {
		if m := p.re.FindStringSubmatchIndex(msg); m != nil {
			return string(p.re.ExpandString(nil, p.form, msg, m))
		}
	}
	return msg
}

func canonicalProblems(msgs []string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = problemForm(m)
	}
	slices.Sort(out)
	return out
}

func TestAbstractSchemaChecksLikeGraphqlJS(t *testing.T) {
	js := graphqljs.Ready(t, filepath.Join("conformance", "node"))
	const n = 1000
	var sdls []string
	var gens []*genSchema
	for seed := range uint64(n) {
		g := newGenSchema(rand.New(rand.NewPCG(seed, 32)))
		gens = append(gens, g)
		sdls = append(sdls, g.sdl())
	}
	want := js.SchemaErrors(context.Background(), t, sdls)
	valid, mismatches := 0, 0
	seen := map[string]int{} // how often each kind of problem came up
	for i, g := range gens {
		var got []string
		if _, err := graphql.NewSchema(g.config()); err != nil {
			got = strings.Split(err.Error(), "\n")
		}
		if len(want[i]) == 0 {
			valid++
		}
		for _, w := range canonicalProblems(want[i]) {
			seen[strings.Fields(w)[0]]++
		}
		if g, w := canonicalProblems(got), canonicalProblems(want[i]); !slices.Equal(g, w) {
			mismatches++
			if mismatches <= 3 {
				t.Errorf("schema %d: NewSchema and graphql-js disagree\n%s\nNewSchema:\n  %s\ngraphql-js:\n  %s",
					i, sdls[i], strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
		}
	}
	t.Logf("%d schemas, %d valid, %d mismatches; problems seen: %v", n, valid, mismatches, seen)
	for _, kind := range []string{"missing", "type", "noarg", "argtype", "extra", "self", "cycle", "ancestor", "twice", "nomembers", "member", "nofields"} {
		if seen[kind] == 0 {
			t.Errorf("no schema had a problem of kind %q: the generator misses it", kind)
		}
	}
	// The generator must give both outcomes plenty of cases.
	if valid < n/10 || valid > n*9/10 {
		t.Errorf("%d of %d schemas valid: the generator is lopsided", valid, n)
	}
}
