package validation

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// Options adjusts [Validator.Validate].
type Options struct {
	// DisableIntrospection refuses __schema and __type (__typename stays
	// allowed) and removes "Did you mean …" suggestions from messages.
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
// parse). Validation writes into the document.
//
// errs are what the client is told about the document. fault is set, and
// errs empty, when a custom scalar's parser failed because of a server bug:
// it is the Err of the first [Fault] Config.ParseLiteral returned. A rule
// that panics is not recovered here: the caller recovers it.
func (s *Validator) Validate(doc *ast.QueryDocument, opts Options) (errs gqlerror.List, fault error) {
	errs, fault = s.validateWith(doc, func() gqlerror.List { return s.runRules(doc, opts) })
	if opts.MaxErrors > 0 && len(errs) > opts.MaxErrors {
		errs = errs[:opts.MaxErrors] // runRules walked the whole document again
	}
	return errs, fault
}

// validateWith is Validate with walk for the walk of the rules, what
// comes before it and the fault it may find after it.
func (s *Validator) validateWith(doc *ast.QueryDocument, walk func() gqlerror.List) (errs gqlerror.List, fault error) {
	if err := s.checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}, nil
	}
	if s.quickValid(doc) {
		return nil, nil
	}
	errs = walk()
	if fault := firstFault(errs); fault != nil {
		return nil, fault
	}
	return errs, nil
}

// firstFault returns the cause of the first error of errs that reports a
// custom scalar parser's fault, nil if none does.
func firstFault(errs gqlerror.List) error {
	for _, e := range errs {
		if f, ok := e.Err.(*Fault); ok {
			return f.Err
		}
	}
	return nil
}

// checkSpreadNesting reports the first spread, in an operation or a
// fragment, that starts a chain of more than s.maxNesting spreads.
func (s *Validator) checkSpreadNesting(doc *ast.QueryDocument) *gqlerror.Error {
	if len(doc.Fragments) == 0 {
		return nil
	}
	byName := FragmentIndex(nil)
	depth := make(map[string]int, len(doc.Fragments)) // the longest chain a fragment starts, itself included
	var chain func(name string) int
	var inSet func(set ast.SelectionSet) (deepest int, at *ast.FragmentSpread)
	chain = func(name string) int {
		if d, ok := depth[name]; ok {
			return d // -1 while it is being measured: a cycle, validation's to report
		}
		f := byName.Get(doc, name)
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
			if deepest > s.maxNesting {
				return deepest, at
			}
		}
		return deepest, at
	}
	check := func(set ast.SelectionSet) *gqlerror.Error {
		if d, at := inSet(set); d > s.maxNesting && at != nil {
			return &gqlerror.Error{
				Message:   fmt.Sprintf("Fragment spreads are nested more than %d levels deep.", s.maxNesting),
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

// errorSet collects the errors of one run of the rules, dropping repeated
// ones as they come: gqlparser walks a fragment's fields at its definition
// and again at every spread, where graphql-js reports once. The first
// report of an error is kept, so the list grows only at its end, and its
// first n errors never change once it has n.
type errorSet struct {
	list gqlerror.List
	seen map[string]bool
	max  int // stop once the list has this many; 0: never
}

// stopWalk is the panic with which errorSet.add ends the walk of the rules
// once the list is full; walkRules recovers it.
type stopWalk struct{}

func (es *errorSet) add(e *gqlerror.Error) {
	key := e.Message
	for _, l := range e.Locations {
		key += "@" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Column)
	}
	if es.seen[key] {
		return
	}
	if es.seen == nil {
		es.seen = map[string]bool{}
	}
	es.seen[key] = true
	es.list = append(es.list, e)
	if es.max > 0 && len(es.list) >= es.max {
		panic(stopWalk{})
	}
}

// runRules runs the rule set that opts selects over doc, in the order of
// their names, as gqlparser's validator.ValidateWithRules does (without
// copying and sorting the set on every call), and drops repeated errors.
//
// With opts.MaxErrors, the walk stops at the MaxErrors-th error, and its
// errors are the first MaxErrors of a whole walk: the rules report in the
// order of the walk, the list grows only at its end, and a repeated error
// is dropped where its first report is kept, so the first n errors are
// settled once the list has n. What the rest of the walk could still
// change is whether Validate answers with a fault: a custom scalar's
// parser that panics on a literal further on (its PanicError among the
// first 100 reports of GqlkitLiteralValues). Unless a panic is among the
// errors already (it is then the first of the whole walk too),
// literalPanics parses those literals, and when one panics the walk is
// done again in full. (A rule that would panic further on, a bug in the
// rule, is not looked for.)
//
// The walk skips the list items that no rule can find fault with (see
// trimValues).
func (s *Validator) runRules(doc *ast.QueryDocument, opts Options) gqlerror.List {
	tr := s.trimValues(doc)
	defer tr.restore()
	errs, stopped := s.walkRules(doc, opts, tr)
	if stopped && firstFault(errs) == nil && s.literalPanics(doc) {
		errs, _ = s.walkRules(doc, Options{DisableIntrospection: opts.DisableIntrospection}, tr)
	}
	return errs
}

// walkRules walks doc once with every rule and reports whether it stopped
// at opts.MaxErrors errors; tr is what trimValues set aside.
func (s *Validator) walkRules(doc *ast.QueryDocument, opts Options, tr *trimmed) (errs gqlerror.List, stopped bool) {
	rs := s.rules
	if opts.DisableIntrospection {
		rs = s.rulesPrivate
	}
	es := &errorSet{max: opts.MaxErrors}
	observers := &core.Events{}
	for i := range rs {
		name := rs[i].name
		left := maxErrorsPerRule
		rs[i].fn(ruleRun{trimmed: tr, left: &left})(observers, func(options ...core.ErrorOption) {
			if left == 0 {
				return // dropped before its message is even formatted
			}
			left--
			err := &gqlerror.Error{Rule: name}
			for _, o := range options {
				o(err)
			}
			es.add(err)
		})
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopWalk); !ok {
				panic(r)
			}
			errs, stopped = es.list, true
		}
	}()
	core.Walk(s.ast, doc, observers)
	return es.list, false
}

// checkRule is a rule of the full validation: fn returns its function for
// one run. gqlparser's rules are the same for every run; the kit's read
// the run's state.
type checkRule struct {
	name string
	fn   func(run ruleRun) core.RuleFunc
}

// ruleRun is what the kit's rules read of the run they are registered for.
type ruleRun struct {
	trimmed *trimmed // the list items set aside for the walk
	// left is how many more reports walkRules keeps from the rule: once it
	// is 0, the rule can no longer change the errors, and may rest.
	left *int
}

// buildRules returns the validation rules with introspection allowed, and
// the private set: introspection refused and no "Did you mean" suggestions,
// each sorted by name as gqlparser runs them.
func (s *Validator) buildRules() (public, private []checkRule) {
	kit := func(suggest bool) []checkRule {
		r := []checkRule{
			{name: "GqlkitLiteralValues", fn: s.literalValuesRule},
			{name: "OverlappingFieldsCanBeMerged", fn: overlapRule},
			{name: "ValuesOfCorrectType", fn: valuesRule(suggest)},
		}
		if suggest { // the private set keeps gqlparser's rule without suggestions
			r = append(r, checkRule{name: "FieldsOnCorrectType", fn: fieldsOnCorrectTypeRule})
		}
		return r
	}
	priv := rules.NewDefaultRules()
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
	return withKitRules(rules.NewDefaultRules(), kit(true)), withKitRules(priv, kit(false))
}

// maxErrorsPerRule bounds the errors one rule reports for one document.
// gqlparser's rules report every fault (10 000 undefined variables make
// 10 000 errors); past the cap, walkRules drops further reports before
// their messages are even formatted.
const maxErrorsPerRule = 100

// withKitRules returns gqlparser's rules r, with the kit's rules in place
// of those of the same name or added, sorted by name.
func withKitRules(r *rules.Rules, kit []checkRule) []checkRule {
	var out []checkRule
	for name, fn := range r.GetInner() {
		if !slices.ContainsFunc(kit, func(k checkRule) bool { return k.name == name }) {
			out = append(out, checkRule{name: name, fn: func(ruleRun) core.RuleFunc { return fn }})
		}
	}
	out = append(out, kit...)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
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
