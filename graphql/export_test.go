package graphql

import (
	"context"
	"fmt"
	"reflect"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/gqlkit/gqlkit/graphql/internal/gqlmirror/syntax"
)

// QuickValid exposes the fast path of Validate to the package's tests.
func (s *Schema) QuickValid(doc *ast.QueryDocument) bool { return s.quickValid(doc) }

// FullRules runs what Validate runs when the fast path declines: the
// fragment nesting check and every rule.
func (s *Schema) FullRules(doc *ast.QueryDocument, opts ValidateOptions) gqlerror.List {
	if err := checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}
	}
	return s.runRules(doc, opts)
}

// ParseDocument exposes ParseQuery's parser, without the checks that follow
// it, to the package's tests.
func ParseDocument(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	var lits syntax.LiteralMemory
	return syntax.Parse(query, maxTokens, &lits)
}

// CheckParsed exposes the checks ParseQuery applies to a parsed document.
func CheckParsed(query string, doc *ast.QueryDocument) (*ast.QueryDocument, *gqlerror.Error) {
	return checkParsed(query, doc)
}

// ShortInt exposes the quick read of short Int literals to the package's
// tests.
func ShortInt(s string) (int, bool) { return shortInt(s) }

// AppendString exposes the JSON string writer to the package's tests.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

// DirectLeaf writes typeName.field of parent by the direct leaf path, once
// a read by the general path has shown the field's accessor parent's Go
// type, and reports whether the path applied.
func (s *Schema) DirectLeaf(typeName, field string, parent any) (string, bool) {
	for o, info := range s.objects {
		if o.Name != typeName {
			continue
		}
		fi := info.byName[field]
		rv := reflect.ValueOf(parent)
		ctx := context.Background()
		if _, err := resolveDefault(&ctx, fi, rv); err != nil {
			return err.Error(), false
		}
		e := &executor{}
		handled, _ := e.directLeaf(&fieldPlan{info: fi, typ: fi.typ}, rv)
		return string(e.buf), handled
	}
	return "no type " + typeName, false
}

// ReferenceValidate is Validate as it was before it trimmed list literals
// for the walk, stopped at ValidateOptions.MaxErrors (which it ignores)
// and had a ValuesOfCorrectType of its own: every rule walks the whole
// document, gqlparser's ValuesOfCorrectType among them, each rule's reports
// are capped, and repeated errors are dropped at the end. The tests compare
// Validate with it.
func (s *Schema) ReferenceValidate(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List, fault error) {
	return s.validateWith(doc, func() gqlerror.List { return s.referenceWalk(doc, opts) })
}

// referenceWalk is ReferenceValidate's walk of the rules.
func (s *Schema) referenceWalk(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List) {
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
func (s *Schema) TrimmedLists(doc *ast.QueryDocument) int {
	tr := s.trimValues(doc)
	defer tr.restore()
	return len(tr.lists)
}

// referenceValuesOfCorrectType is how the kit used gqlparser's
// ValuesOfCorrectType before rules_values.go: it wraps the rule, which refuses an Int literal
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
