// Package validation checks documents against a schema as gqlparser's
// validator does, faster: the errors a client sees are gqlparser's, message
// for message, plus the kit's own.
//
// [Validator.Validate] first tries a fast path (quick.go) that accepts, in
// one walk, the documents that certainly pass every rule; when it cannot
// tell, gqlparser's rules run, with three of them replaced or added:
// OverlappingFieldsCanBeMerged (overlap.go) and ValuesOfCorrectType
// (values.go), which report what gqlparser's report in bounded time, and
// GqlkitLiteralValues (literals.go): Int literals must fit in 32 bits and
// custom scalar literals must parse. Before the walk, list items no rule can
// fault are set aside (trim.go).
package validation

import (
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
)

// A Validator validates documents against one schema. It is safe for
// concurrent use.
type Validator struct {
	ast          *ast.Schema
	quick        *quickIndex // for the fast path of Validate
	rules        []checkRule // introspection allowed, sorted by name
	rulesPrivate []checkRule // introspection refused, no suggestions
	// custom: the names of the custom scalars, whose literals
	// parseLiteral checks.
	custom       map[string]bool
	parseLiteral func(scalar string, v *ast.Value) error
	// customInputs: the input types whose literals can hold a custom
	// scalar's (see literalPanics).
	customInputs map[*ast.Definition]bool
	maxNesting   int // Config.MaxFragmentNesting
}

// Config is what a Validator is built from.
type Config struct {
	// Schema is the schema documents are validated against.
	Schema *ast.Schema
	// CustomScalars names the scalars whose literals ParseLiteral checks;
	// the built-in scalars are never among them.
	CustomScalars map[string]bool
	// ParseLiteral parses v, a literal without variables, as the custom
	// scalar named scalar. Its error is reported to the client: a
	// *gqlerror.Error with its message and extensions, [ErrNoValue] as a
	// value of the wrong type, anything else after it; but a [*Fault] is a
	// server bug, which Validate returns instead of errors. ParseLiteral
	// must not panic.
	ParseLiteral func(scalar string, v *ast.Value) error
	// MaxFragmentNesting bounds how deeply fragment spreads may nest (a
	// spread of a fragment that spreads another, and so on): Validate
	// refuses a deeper chain before running the rules, which would walk
	// it again and again.
	MaxFragmentNesting int
}

// A Fault is what Config.ParseLiteral returns when the scalar's parser
// failed because of a server bug (it panicked): Validate returns Err as its
// fault, and no errors.
type Fault struct{ Err error }

func (f *Fault) Error() string { return f.Err.Error() }

func (f *Fault) Unwrap() error { return f.Err }

// ErrNoValue is what Config.ParseLiteral returns for a literal that its
// scalar's parser read as no value at all.
var ErrNoValue = errors.New("no value")

// New returns a Validator for cfg.Schema.
func New(cfg Config) *Validator {
	s := &Validator{ast: cfg.Schema, custom: cfg.CustomScalars, parseLiteral: cfg.ParseLiteral, maxNesting: cfg.MaxFragmentNesting}
	s.quick = newQuickIndex(cfg.Schema)
	s.rules, s.rulesPrivate = s.buildRules()
	s.customInputs = s.customInputTypes()
	return s
}

// FragmentIndex finds a document's fragments by name without scanning the
// list for every spread (a document may hold hundreds). The zero value is
// ready to use.
type FragmentIndex map[string]*ast.FragmentDefinition

// Get returns the first fragment of doc named name, nil if none is.
func (ix *FragmentIndex) Get(doc *ast.QueryDocument, name string) *ast.FragmentDefinition {
	if *ix == nil {
		if len(doc.Fragments) == 0 {
			return nil // nothing to index: the index stays nil and is never written
		}
		*ix = make(FragmentIndex, len(doc.Fragments))
		for _, f := range doc.Fragments {
			if _, dup := (*ix)[f.Name]; !dup { // the first, as ForName finds
				(*ix)[f.Name] = f
			}
		}
	}
	return (*ix)[name]
}
