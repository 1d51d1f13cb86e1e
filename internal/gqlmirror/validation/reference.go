package validation

import (
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// This file is for the tests of the graphql package: the parts of
// Validate they check on their own, and the reference they compare it with.

// QuickValid is the fast path of Validate: true when doc certainly passes
// every rule.
func (s *Validator) QuickValid(doc *ast.QueryDocument) bool { return s.quickValid(doc) }

// FullRules runs what Validate runs when the fast path declines: the
// fragment nesting check and every rule.
func (s *Validator) FullRules(doc *ast.QueryDocument, opts Options) gqlerror.List {
	if err := s.checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}
	}
	return s.runRules(doc, opts)
}

// ReferenceValidate is Validate as it was before it trimmed list literals
// for the walk, stopped at Options.MaxErrors (which it ignores)
// and had a ValuesOfCorrectType of its own: every rule walks the whole
// document, gqlparser's ValuesOfCorrectType among them, each rule's reports
// are capped, and repeated errors are dropped at the end. The tests compare
// Validate with it.
func (s *Validator) ReferenceValidate(doc *ast.QueryDocument, opts Options) (errs gqlerror.List, fault error) {
	return s.validateWith(doc, func() gqlerror.List { return s.referenceWalk(doc, opts) })
}

// referenceWalk is ReferenceValidate's walk of the rules.
func (s *Validator) referenceWalk(doc *ast.QueryDocument, opts Options) (errs gqlerror.List) {
	rs, voct := s.rules, rules.ValuesOfCorrectTypeRule.RuleFunc
	if opts.DisableIntrospection {
		rs, voct = s.rulesPrivate, rules.ValuesOfCorrectTypeRuleWithoutSuggestions.RuleFunc
	}
	observers := &core.Events{}
	for i := range rs {
		name := rs[i].name
		left := maxErrorsPerRule
		fn := rs[i].fn(ruleRun{left: &left}) // nothing trimmed
		if name == "ValuesOfCorrectType" {
			fn = referenceValuesOfCorrectType(voct)
		}
		fn(observers, func(options ...core.ErrorOption) {
			if left > 0 {
				left--
				err := &gqlerror.Error{Rule: name}
				for _, o := range options {
					o(err)
				}
				errs = append(errs, err)
			}
		})
	}
	core.Walk(s.ast, doc, observers)
	seen := map[string]bool{}
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

// TrimmedLists returns how many list literals of doc the walk of the rules
// would see shortened, and puts them back.
func (s *Validator) TrimmedLists(doc *ast.QueryDocument) int {
	tr := s.trimValues(doc)
	defer tr.restore()
	return len(tr.lists)
}

// referenceValuesOfCorrectType is how the kit used gqlparser's
// ValuesOfCorrectType before values.go: it wraps the rule, which refuses an Int literal
// beyond 64 bits even where graphql-js accepts it: as a Float (1e20) or as
// an ID (the digits as a string). It also drops what the rule reports at a
// variable: gqlparser checks the variable's default there again (graphql-js
// checks it once, where it is written), and a default it cannot read, such
// as a 20-digit ID, was refused at every use.
func referenceValuesOfCorrectType(inner core.RuleFunc) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		allowed := map[*ast.Position]bool{}
		observers.OnValue(func(_ *core.Walker, value *ast.Value) {
			if value.Kind == ast.Variable && value.Position != nil {
				allowed[value.Position] = true
				return
			}
			if value.Kind == ast.IntValue && value.Definition != nil && value.Definition.Kind == ast.Scalar &&
				(value.Definition.Name == "Float" || value.Definition.Name == "ID") && value.Position != nil {
				if _, err := strconv.ParseInt(value.Raw, 10, 64); err != nil {
					allowed[value.Position] = true
				}
			}
		})
		inner(observers, func(options ...core.ErrorOption) {
			var probe gqlerror.Error
			var at *ast.Position
			for _, o := range options {
				o(&probe)
			}
			for pos := range allowed {
				if len(probe.Locations) == 1 && probe.Locations[0].Line == pos.Line && probe.Locations[0].Column == pos.Column {
					at = pos
				}
			}
			if at != nil {
				return
			}
			addError(options...)
		})
	}
}
