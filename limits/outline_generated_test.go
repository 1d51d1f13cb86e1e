package limits

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestScanBoundsGenerated checks the properties of FuzzScanBounds on
// documents generated from gqlparser's grammar, which random mutation
// rarely reaches: aliases, introspection fields, inline fragments with and
// without type conditions, directives and values holding braces, comments
// and strings holding braces, fragments spread inside and outside
// introspection, cycles and unknown fragments.
func TestScanBoundsGenerated(t *testing.T) {
	testenv.SkipIfShort(t, "generated: 2,000 documents from the grammar, each scanned, parsed and checked")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		g := docGen{r: r}
		q := g.document()
		if _, err := parser.ParseQuery(&ast.Source{Input: q}); err != nil {
			t.Fatalf("document %d does not parse: %v\n%s", i, err, q)
		}
		assertScanBounds(t, q, 1+r.IntN(6), 1+r.IntN(30))
	}
}

// docGen generates executable documents that gqlparser parses.
type docGen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *docGen) pick(words ...string) string { return words[g.r.IntN(len(words))] }

// sep writes what may separate two tokens: a space, or ignored tokens and
// a comment holding brackets.
func (g *docGen) sep() {
	g.b.WriteString(g.pick(" ", " ", " ", ",", "\n\t", " # } { ( [\n", "\r\n"))
}

func (g *docGen) w(parts ...string) {
	for _, p := range parts {
		g.b.WriteString(p)
		g.sep()
	}
}

func (g *docGen) document() string {
	for range 1 + g.r.IntN(4) {
		if g.r.IntN(3) == 0 {
			g.fragmentDefinition()
		} else {
			g.operation()
		}
	}
	return g.b.String()
}

func (g *docGen) operation() {
	if g.r.IntN(3) == 0 {
		g.selectionSet(0)
		return
	}
	if g.r.IntN(4) == 0 {
		g.w(g.pick(`"d { x }"`, `"""{ y { z } }"""`))
	}
	g.w(g.pick("query", "mutation", "subscription"))
	if g.r.IntN(2) == 0 {
		g.w(g.pick("Q", "query", "fragment", "on"))
	}
	if g.r.IntN(2) == 0 {
		g.w("(", "$v", ":", g.pick("Int", "[In!]!", "In"))
		if g.r.IntN(2) == 0 {
			g.w("=")
			g.value(0, true)
		}
		g.directives(true)
		g.w(")")
	}
	g.directives(true)
	g.selectionSet(0)
}

func (g *docGen) fragmentDefinition() {
	g.w("fragment", g.pick("F", "G", "H"))
	if g.r.IntN(4) == 0 {
		g.w("(", "$a", ":", "In", "=")
		g.value(0, true)
		g.w(")")
	}
	g.w("on", g.pick("Query", "__Type", "on"))
	g.directives(true)
	g.selectionSet(0)
}

func (g *docGen) selectionSet(level int) {
	g.w("{")
	for range 1 + g.r.IntN(4) {
		switch n := g.r.IntN(10); {
		case n < 6 || level >= 7:
			g.field(level)
		case n < 8:
			g.w("...")
			switch g.r.IntN(5) {
			case 0:
				g.w("on", g.pick("Query", "on", "__Type"))
			case 1:
				g.w(g.pick(`"on"`, `"""on"""`, `"\u006fn"`), "T")
			}
			g.directives(false)
			g.selectionSet(level + 1)
		default:
			g.w("...", g.pick("F", "G", "H", "Missing"))
			g.directives(false)
		}
	}
	g.w("}")
}

func (g *docGen) field(level int) {
	if g.r.IntN(3) == 0 {
		g.w(g.pick("a", "__schema", "__type", "on", "x"), ":")
	}
	name := g.pick("a", "b", "on", "query", "fragment", "true", "__typename")
	if g.r.IntN(8) == 0 {
		name = g.pick("__schema", "__type")
	}
	g.w(name)
	if g.r.IntN(3) == 0 {
		g.w("(", "x", ":")
		g.value(0, false)
		g.w(")")
	}
	g.directives(false)
	if level < 7 && g.r.IntN(2) == 0 {
		g.selectionSet(level + 1)
	}
}

func (g *docGen) directives(isConst bool) {
	for g.r.IntN(3) == 0 {
		g.w("@", g.pick("skip", "include", "d", "on"))
		if g.r.IntN(2) == 0 {
			g.w("(", "if", ":")
			g.value(0, isConst)
			g.w(")")
		}
	}
}

func (g *docGen) value(level int, isConst bool) {
	n := g.r.IntN(9)
	if level >= 3 {
		n %= 5
	}
	switch n {
	case 0:
		g.w(g.pick("1", "-2.5e3", "true", "null", "ENUM"))
	case 1:
		g.w(g.pick(`"{ a { b } }"`, `"\"{"`, "\"\"\"{ \\\"\"\" }\"\"\"", `"}"`))
	case 2:
		if isConst {
			g.w("0")
		} else {
			g.w("$v")
		}
	case 3, 4:
		g.w(g.pick("on", "fragment", "a"))
	case 5, 6:
		g.w("{")
		for range g.r.IntN(3) {
			g.w(g.pick("a", "on", "__schema"), ":")
			g.value(level+1, isConst)
		}
		g.w("}")
	default:
		g.w("[")
		for range g.r.IntN(3) {
			g.value(level+1, isConst)
		}
		g.w("]")
	}
}
