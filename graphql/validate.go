package graphql

import (
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// ValidateOptions adjusts [Schema.Validate].
type ValidateOptions struct {
	// DisableIntrospection refuses __schema and __type (__typename stays
	// allowed) and removes "Did you mean …" suggestions from messages, so
	// that errors do not reveal the schema.
	DisableIntrospection bool
	// MaxErrors, when positive, is the most errors the caller will use:
	// the rules stop looking once they have found that many, and the
	// errors returned are the first MaxErrors of those found without the
	// bound, in the same order; a custom scalar parser's panic further on
	// is still the fault. Zero finds them all (up to 100 per rule).
	MaxErrors int
}

// Validate checks a parsed document against the schema: gqlparser's rules
// (those of graphql-js, including the introspection depth limit) plus the
// kit's own (Int literals must fit in 32 bits, custom scalar literals must
// parse). Validation writes into the document: validate a document once,
// before sharing it, and never concurrently.
//
// errs are what the client is told about the document. bug is set, and
// errs empty, when validation could not be done because of a server bug:
// a custom scalar's ParseLiteral panicked, or a rule did (an
// *errcode.PanicError, to answer with a 500).
func (s *Schema) Validate(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List, bug error) {
	defer func() {
		if p := recover(); p != nil {
			errs, bug = nil, fault.Recovered(p)
		}
	}()
	return s.validator.Validate(doc, validation.Options{DisableIntrospection: opts.DisableIntrospection, MaxErrors: opts.MaxErrors})
}

// MaxFragmentNesting bounds how deeply fragment spreads may nest (a spread
// of a fragment that spreads another, and so on). Such a chain adds no
// depth and no nodes, so the limits do not see it; [Schema.Validate]
// refuses a deeper one before running the validation rules, which would
// walk it again and again.
const MaxFragmentNesting = 64

// newValidator returns the validator of s, whose ast is built: it checks
// the literals of s's custom scalars with their parsers.
func (s *Schema) newValidator() *validation.Validator {
	custom := map[string]bool{}
	for name, t := range s.named {
		if _, ok := t.(*Scalar); ok {
			custom[name] = true
		}
	}
	return validation.New(validation.Config{Schema: s.ast, CustomScalars: custom, ParseLiteral: s.checkScalarLiteral,
		MaxFragmentNesting: MaxFragmentNesting})
}

// checkScalarLiteral parses v as the custom scalar named name, for
// validation: its error is a *gqlerror.Error as the parser gave it, a
// validation.Fault holding the *errcode.PanicError of a parser that
// panicked, validation.ErrNoValue, or one with the text of the parser's
// error.
func (s *Schema) checkScalarLiteral(name string, v *ast.Value) error {
	sc, _ := s.named[name].(*Scalar)
	if sc == nil {
		return nil
	}
	_, err := coerce.ParseScalarLiteral(s.nodes[sc], v, nil)
	if err == nil {
		return nil
	}
	var pe *errcode.PanicError
	var nv coerce.NoValueError
	switch {
	case errors.As(err, &pe):
		return &validation.Fault{Err: pe}
	case errors.As(err, &nv):
		return validation.ErrNoValue
	case coerce.GraphQLError(err) != nil:
		return err
	}
	return errors.New(fault.ErrorText(err))
}
