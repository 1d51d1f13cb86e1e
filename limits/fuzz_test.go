package limits

import (
	"errors"
	"reflect"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// unlimited returns a Config that measures without limits.
func unlimited() Config {
	return Config{MaxLength: NoLimit, MaxTokens: NoLimit, MaxNesting: NoLimit, MaxDepth: NoLimit, MaxNodes: NoLimit}
}

// FuzzScan checks that Scan never panics, is deterministic, fails exactly
// when a measurement without limits crosses the length, token or nesting
// limit, and counts tokens and finds the first undefined variable of an
// operation as gqlparser does on every document gqlparser accepts. Seeds are in testdata/fuzz/FuzzScan.
func FuzzScan(f *testing.F) {
	f.Add("{ a }", int16(0), int16(0), int16(0))
	f.Add("query Q($a: Int = 1 @d(x: 2)) @d(y: $b) { f(a: $a, s: \"$c\") { ... on T @i(if: $d) { g } } }", int16(0), int16(0), int16(0))
	f.Fuzz(func(t *testing.T, q string, maxLength, maxTokens, maxNesting int16) {
		all, err := unlimited().Scan(q)
		if err != nil {
			t.Fatalf("Scan without limits: %v", err)
		}
		if all.Length != len(q) || all.Tokens > len(q) || all.Nesting > all.Tokens {
			t.Fatalf("Scan without limits = %+v for %d bytes", all, len(q))
		}
		if again, _ := unlimited().Scan(q); again != all {
			t.Fatalf("second Scan = %+v, first %+v", again, all)
		}
		if doc, err := parser.ParseQuery(&ast.Source{Input: q}); err == nil {
			assertParserTokens(t, q, all.Tokens)
			if want := firstUndefinedVariable(doc); all.UndefinedVariable != want {
				t.Fatalf("UndefinedVariable = %+v, gqlparser's AST has %+v", all.UndefinedVariable, want)
			}
		}

		// Depth and nodes are off here; FuzzScanBounds checks them.
		config := Config{MaxLength: int(maxLength), MaxTokens: int(maxTokens), MaxNesting: int(maxNesting), MaxDepth: NoLimit, MaxNodes: NoLimit}
		limit := config.Effective()
		over := func(v, m int) bool { return m != NoLimit && v > m }
		got, err := config.Scan(q)
		crossed := over(all.Length, limit.MaxLength) || over(all.Tokens, limit.MaxTokens) || over(all.Nesting, limit.MaxNesting)
		if err == nil {
			if crossed {
				t.Fatalf("Scan(%+v) passed, but without limits it measures %+v", limit, all)
			}
			if got != all {
				t.Fatalf("Scan(%+v) = %+v, without limits %+v", limit, got, all)
			}
			return
		}
		var lerr *Error
		if !errors.As(err, &lerr) {
			t.Fatalf("Scan error %v (%T) is not an *Error", err, err)
		}
		if !crossed || lerr.Found <= lerr.Max {
			t.Fatalf("Scan(%+v) = %+v, but without limits it measures %+v", limit, lerr, all)
		}
		switch lerr.Limit {
		case Length:
			if lerr.Max != limit.MaxLength || lerr.Found != len(q) || lerr.Line != 0 {
				t.Fatalf("length error %+v for %d bytes", lerr, len(q))
			}
		case Tokens:
			if lerr.Max != limit.MaxTokens || lerr.Found != lerr.Max+1 || lerr.Found > all.Tokens || over(len(q), limit.MaxLength) || lerr.Line < 1 || lerr.Column < 1 {
				t.Fatalf("tokens error %+v, without limits %+v", lerr, all)
			}
		case Nesting:
			if lerr.Max != limit.MaxNesting || lerr.Found != lerr.Max+1 || lerr.Found > all.Nesting || over(len(q), limit.MaxLength) || lerr.Line < 1 || lerr.Column < 1 {
				t.Fatalf("nesting error %+v, without limits %+v", lerr, all)
			}
		default:
			t.Fatalf("Scan error for limit %q", lerr.Limit)
		}
	})
}

// FuzzCheckDocument checks that Check reads a document as gqlparser's
// parser does (the same document, or the same error), and that
// CheckDocument never panics on whatever gqlparser's parser returns, even
// the partial document of a syntax error, is deterministic, and fails
// exactly when a measurement without limits crosses the limits. Seeds are
// in testdata/fuzz/FuzzCheckDocument.
func FuzzCheckDocument(f *testing.F) {
	f.Add("{ a { b } ...F } fragment F on Query { c }", int16(0), int16(0))
	f.Fuzz(func(t *testing.T, q string, maxDepth, maxNodes int16) {
		doc, parseErr := parser.ParseQuery(&ast.Source{Input: q})
		checked, checkErr := unlimited().Check(q)
		if parseErr != nil {
			if checked != nil || !reflect.DeepEqual(checkErr, parseErr) {
				t.Fatalf("Check(%q) = %v, %#v; gqlparser's error %#v", q, checked != nil, checkErr, parseErr)
			}
		} else if checkErr != nil || !reflect.DeepEqual(checked, doc) {
			t.Fatalf("Check(%q) = %v, %v: not gqlparser's document", q, checked != nil, checkErr)
		}
		all, err := unlimited().CheckDocument(doc)
		if err != nil {
			t.Fatalf("CheckDocument without limits: %v", err)
		}
		if again, _ := unlimited().CheckDocument(doc); again != all {
			t.Fatalf("second CheckDocument = %+v, first %+v", again, all)
		}
		if doc != nil {
			for _, op := range doc.Operations {
				one, err := unlimited().CheckOperation(doc, op)
				if err != nil || one.Depth > all.Depth || one.Nodes > all.Nodes {
					t.Fatalf("CheckOperation = %+v, %v; CheckDocument %+v", one, err, all)
				}
			}
		}
		if parseErr != nil {
			return // the partial document only had to be survived
		}
		if all.Nodes > 0 && all.Nodes < all.Depth {
			t.Fatalf("CheckDocument = %+v: fewer nodes than depth", all)
		}

		config := Config{MaxDepth: int(maxDepth), MaxNodes: int(maxNodes)}
		limit := config.Effective()
		over := func(v, m int) bool { return m != NoLimit && v > m }
		got, err := config.CheckDocument(doc)
		crossed := over(all.Depth, limit.MaxDepth) || over(all.Nodes, limit.MaxNodes)
		if err == nil {
			if crossed || got != all {
				t.Fatalf("CheckDocument(%+v) = %+v, nil; without limits %+v", limit, got, all)
			}
			return
		}
		var lerr *Error
		if !errors.As(err, &lerr) {
			t.Fatalf("CheckDocument error %v (%T) is not an *Error", err, err)
		}
		switch {
		case !crossed:
			t.Fatalf("CheckDocument(%+v) = %+v, but without limits it measures %+v", limit, lerr, all)
		case lerr.Limit == Depth && (lerr.Max != limit.MaxDepth || lerr.Found <= lerr.Max || lerr.Found > all.Depth):
			t.Fatalf("depth error %+v, without limits %+v", lerr, all)
		case lerr.Limit == Nodes && (lerr.Max != limit.MaxNodes || lerr.Found <= lerr.Max || lerr.Found > all.Nodes):
			t.Fatalf("nodes error %+v, without limits %+v", lerr, all)
		case lerr.Limit != Depth && lerr.Limit != Nodes:
			t.Fatalf("CheckDocument error for limit %q", lerr.Limit)
		case lerr.Line < 1 || lerr.Column < 1:
			t.Fatalf("error %+v has no position", lerr)
		}
	})
}
