package graphql

import (
	"fmt"
	"sort"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	apierror "github.com/gqlkit/gqlkit/errors"
)

// ValidateOptions adjusts [Schema.Validate].
type ValidateOptions struct {
	// DisableIntrospection refuses __schema and __type (__typename stays
	// allowed) and removes "Did you mean …" suggestions from messages, so
	// that errors do not reveal the schema.
	DisableIntrospection bool
}

// Validate checks a parsed document against the schema: gqlparser's rules
// (those of graphql-js, including the introspection depth limit) plus the
// kit's own (Int literals must fit in 32 bits, custom scalar literals must
// parse). Validation writes into the document: validate a document once,
// before sharing it, and never concurrently.
//
// errs are what the client is told about the document. fault is set, and
// errs empty, when validation could not be done because of a server bug:
// a custom scalar's ParseLiteral panicked, or a rule did (an
// *apierror.PanicError, to answer with a 500).
func (s *Schema) Validate(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List, fault error) {
	defer func() {
		if p := recover(); p != nil {
			errs, fault = nil, recovered(p)
		}
	}()
	if err := checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}, nil
	}
	if s.quickValid(doc) {
		return nil, nil
	}
	errs = s.runRules(doc, opts)
	for _, e := range errs {
		if pe, ok := e.Err.(*apierror.PanicError); ok {
			return nil, pe
		}
	}
	return errs, nil
}

// MaxFragmentNesting bounds how deeply fragment spreads may nest (a spread
// of a fragment that spreads another, and so on). Such a chain adds no
// depth and no nodes, so the limits do not see it; [Schema.Validate]
// refuses a deeper one before running the validation rules, which would
// walk it again and again.
const MaxFragmentNesting = 64

// checkSpreadNesting reports the first spread, in an operation or a
// fragment, that starts a chain of more than MaxFragmentNesting spreads.
func checkSpreadNesting(doc *ast.QueryDocument) *gqlerror.Error {
	if len(doc.Fragments) == 0 {
		return nil
	}
	byName := fragmentIndex(nil)
	depth := map[string]int{} // the longest chain a fragment starts, itself included
	var chain func(name string) int
	var inSet func(set ast.SelectionSet) (deepest int, at *ast.FragmentSpread)
	chain = func(name string) int {
		if d, ok := depth[name]; ok {
			return d // -1 while it is being measured: a cycle, validation's to report
		}
		f := byName.get(doc, name)
		if f == nil {
			return 0
		}
		depth[name] = -1
		d, _ := inSet(f.SelectionSet)
		depth[name] = d + 1
		return d + 1
	}
	inSet = func(set ast.SelectionSet) (deepest int, at *ast.FragmentSpread) {
		for _, sel := range set {
			var d int
			var here *ast.FragmentSpread
			switch x := sel.(type) {
			case *ast.Field:
				d, here = inSet(x.SelectionSet)
			case *ast.InlineFragment:
				d, here = inSet(x.SelectionSet)
			case *ast.FragmentSpread:
				d, here = chain(x.Name), x
			}
			if d > deepest {
				deepest, at = d, here
			}
			if deepest > MaxFragmentNesting {
				return deepest, at
			}
		}
		return deepest, at
	}
	check := func(set ast.SelectionSet) *gqlerror.Error {
		if d, at := inSet(set); d > MaxFragmentNesting && at != nil {
			return &gqlerror.Error{
				Message:   fmt.Sprintf("Fragment spreads are nested more than %d levels deep.", MaxFragmentNesting),
				Locations: []gqlerror.Location{{Line: at.Position.Line, Column: at.Position.Column}},
				Rule:      "GqlkitFragmentNesting",
			}
		}
		return nil
	}
	for _, op := range doc.Operations {
		if err := check(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := check(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}

// dedupe drops repeated errors: gqlparser walks a fragment's fields at its
// definition and again at every spread, where graphql-js reports once.
func dedupe(errs gqlerror.List) gqlerror.List {
	if len(errs) < 2 {
		return errs
	}
	seen := make(map[string]bool, len(errs))
	out := errs[:0]
	for _, e := range errs {
		key := e.Message
		for _, l := range e.Locations {
			key += fmt.Sprintf("@%d:%d", l.Line, l.Column)
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	return out
}

// runRules runs the rule set that opts selects over doc, in the order of
// their names, as gqlparser's validator.ValidateWithRules does (without
// copying and sorting the set on every call), and drops repeated errors.
func (s *Schema) runRules(doc *ast.QueryDocument, opts ValidateOptions) gqlerror.List {
	rs := s.rules
	if opts.DisableIntrospection {
		rs = s.rulesPrivate
	}
	var errs gqlerror.List
	observers := &core.Events{}
	for i := range rs {
		name := rs[i].Name
		rs[i].RuleFunc(observers, func(options ...core.ErrorOption) {
			err := &gqlerror.Error{Rule: name}
			for _, o := range options {
				o(err)
			}
			errs = append(errs, err)
		})
	}
	core.Walk(s.ast, doc, observers)
	return dedupe(errs)
}

// buildRules returns the validation rules with introspection allowed, and
// the private set: introspection refused and no "Did you mean" suggestions,
// each sorted by name as gqlparser runs them.
func (s *Schema) buildRules() (public, private []core.Rule) {
	pub := rules.NewDefaultRules()
	pub.AddRule("GqlkitLiteralValues", s.literalValuesRule)
	pub.ReplaceRule("ValuesOfCorrectType", valuesOfCorrectType(rules.ValuesOfCorrectTypeRule.RuleFunc))
	pub.ReplaceRule("OverlappingFieldsCanBeMerged", overlapRule)

	priv := rules.NewDefaultRules()
	priv.AddRule("GqlkitLiteralValues", s.literalValuesRule)
	priv.ReplaceRule("ValuesOfCorrectType", valuesOfCorrectType(rules.ValuesOfCorrectTypeRuleWithoutSuggestions.RuleFunc))
	priv.ReplaceRule("OverlappingFieldsCanBeMerged", overlapRule)
	for _, r := range []core.Rule{
		rules.FieldsOnCorrectTypeRuleWithoutSuggestions,
		rules.KnownArgumentNamesRuleWithoutSuggestions,
		rules.KnownTypeNamesRuleWithoutSuggestions,
		rules.ScalarLeafsRuleWithoutSuggestions,
	} {
		base := r.Name[:len(r.Name)-len("WithoutSuggestions")]
		priv.ReplaceRule(base, r.RuleFunc)
	}
	priv.AddRule("GqlkitNoIntrospection", noIntrospectionRule)
	return capRules(pub), capRules(priv)
}

// maxErrorsPerRule bounds the errors one rule reports for one document.
// gqlparser's rules report every fault (10 000 undefined variables make
// 10 000 errors); past the cap, further reports are dropped before their
// messages are even formatted.
const maxErrorsPerRule = 100

func capRules(r *rules.Rules) []core.Rule {
	var out []core.Rule
	for name, fn := range r.GetInner() {
		out = append(out, core.Rule{Name: name, RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
			left := maxErrorsPerRule
			fn(observers, func(options ...core.ErrorOption) {
				if left > 0 {
					left--
					addError(options...)
				}
			})
		}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func noIntrospectionRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnField(func(_ *core.Walker, field *ast.Field) {
		if field.Name == "__schema" || field.Name == "__type" {
			addError(core.Message("GraphQL introspection is not allowed, but the query contained %s.", field.Name),
				core.At(field.Position))
		}
	})
}
