package graphql_test

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestTerminationOverlapRule(t *testing.T) {
	s := cyclicSchema(t)
	cycle := `Cannot spread fragment \"A\" within itself.`
	tests := []struct {
		name, query, want string
	}{
		{name: "two fragments spreading themselves in a sub-selection, side by side",
			query: `{user{...A ...B}}fragment A on User{posts{author{...A}}}fragment B on User{posts{author{...B}}}`,
			want:  cycle},
		{name: "mutual recursion through sub-selections",
			query: `{user{...A ...B}}fragment A on User{friends{...B}}fragment B on User{friends{...A}}`,
			want:  `Cannot spread fragment \"A\" within itself via \"B\".`},
		{name: "three fragments, conflicting aliases inside",
			query: `{user{...A ...B ...C}}fragment A on User{x:friends{...B}}fragment B on User{x:posts{...C}}fragment C on Post{author{...A}}`,
			want:  `Cannot spread fragment \"A\" within itself via \"B\", \"C\".`},
		{name: "self spread at the top of its own selection",
			query: `{user{...A}}fragment A on User{id ...A best{...A}}`,
			want:  cycle},
		{name: "cycle through inline fragments",
			query: `{user{...A ...B}}fragment A on User{... on User{best{...on User{...A}}}}fragment B on User{...{best{...B}}}`,
			want:  cycle},
		{name: "cycle in an unused fragment",
			query: `{user{id}}fragment A on User{best{...A}}fragment B on User{best{...A ...B}}`,
			want:  cycle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ends(t, s, tt.query, "")
			if !strings.Contains(got, tt.want) {
				t.Errorf("response %s\ndoes not report %s", got, tt.want)
			}
			if strings.Contains(got, `"data"`) {
				t.Errorf("an invalid document was executed: %s", got)
			}
		})
	}
}

func TestTerminationOverlapReportsEachConflictOnce(t *testing.T) {
	s := cyclicSchema(t)
	tests := []struct {
		name, query string
	}{
		{"fragment met from the operation and from another fragment",
			`{ ...G ...F } fragment F on Query { x: a ...G } fragment G on Query { x: b }`},
		{"fragment met from the operation and from another fragment, other order",
			`{ ...F ...G } fragment F on Query { x: a ...G } fragment G on Query { x: b }`},
		{"conflict below a field selected twice",
			`{ user { x: name } ...F } fragment F on Query { user { x: id } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parser.ParseQuery(&ast.Source{Input: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			var conflicts []string
			for _, e := range validateDoc(s, doc, graphql.ValidateOptions{}) {
				if e.Rule == "OverlappingFieldsCanBeMerged" {
					conflicts = append(conflicts, e.Message)
				}
			}
			if len(conflicts) != 1 {
				t.Errorf("%d conflicts reported, want 1: %q", len(conflicts), conflicts)
			}
		})
	}
}

// TestTerminationValidationOfCycles runs every validation rule (gqlparser's
// and the kit's) over cyclic documents, with and without introspection.
func TestTerminationValidationOfCycles(t *testing.T) {
	s := cyclicSchema(t)
	docs := []string{
		`{user{...A ...B}}fragment A on User{posts{author{...A}}}fragment B on User{posts{author{...B}}}`,
		`{__schema{types{...T}}}fragment T on __Type{fields{type{...T}} ofType{...T}}`,
		`{__type(name:"User"){...T ...U}}fragment T on __Type{fields{type{...U}}}fragment U on __Type{ofType{...T}}`,
		`query($v: Boolean!){user{...A @include(if:$v) ...A @skip(if:$v)}}fragment A on User{best{...A}}`,
		`{search(where:{not:{not:{and:[{tag:"x"}]}}}, a:{b:{a:{b:{n:2}}}})}fragment A on Query{...A}`,
	}
	for _, query := range docs {
		doc, err := parser.ParseQuery(&ast.Source{Input: query})
		if err != nil {
			t.Fatalf("parse %q: %v", query, err)
		}
		for _, private := range []bool{false, true} {
			// Validation writes into the document; it ends, and says why.
			errs := validateDoc(s, doc, graphql.ValidateOptions{DisableIntrospection: private})
			if len(errs) == 0 {
				t.Errorf("Validate(%q) found nothing wrong", query)
			}
		}
	}
}
