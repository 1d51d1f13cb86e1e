package graphql

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// directiveInfo describes one of the directives every schema has.
type directiveInfo struct {
	name      string
	desc      string
	locations []string
	args      []*argInfo
}

// specifiedDirectives returns the directives of graphql-js 16, in its order.
func specifiedDirectives() []*directiveInfo {
	ifArg := func(desc string) []*argInfo {
		return []*argInfo{{name: "if", typ: NewNonNull(Boolean), desc: desc}}
	}
	executable := []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"}
	return []*directiveInfo{
		{name: "include", desc: "Directs the executor to include this field or fragment only when the `if` argument is true.",
			locations: executable, args: ifArg("Included when true.")},
		{name: "skip", desc: "Directs the executor to skip this field or fragment when the `if` argument is true.",
			locations: executable, args: ifArg("Skipped when true.")},
		{name: "deprecated", desc: "Marks an element of a GraphQL schema as no longer supported.",
			locations: []string{"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE", "DIRECTIVE_DEFINITION"},
			args: []*argInfo{{name: "reason", typ: String, hasDefault: true, def: defaultDeprecationReason,
				defAST: &ast.Value{Kind: ast.StringValue, Raw: defaultDeprecationReason},
				desc:   "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/)."}}},
		{name: "specifiedBy", desc: "Exposes a URL that specifies the behavior of this scalar.",
			locations: []string{"SCALAR"},
			args:      []*argInfo{{name: "url", typ: NewNonNull(String), desc: "The URL that specifies the behavior of this scalar."}}},
		{name: "oneOf", desc: "Indicates exactly one field must be supplied and this field must not be `null`.",
			locations: []string{"INPUT_OBJECT"}},
	}
}

const defaultDeprecationReason = "No longer supported"

func astType(t Type) *ast.Type {
	switch x := t.(type) {
	case *NonNull:
		inner := astType(x.OfType)
		inner.NonNull = true
		return inner
	case *List:
		return ast.ListType(astType(x.OfType), nil)
	case NamedType:
		return ast.NamedType(x.TypeName(), nil)
	}
	return nil
}

func deprecatedDirective(reason string) ast.DirectiveList {
	if reason == "" {
		return nil
	}
	return ast.DirectiveList{{Name: "deprecated", Arguments: ast.ArgumentList{{Name: "reason",
		Value: &ast.Value{Kind: ast.StringValue, Raw: reason}}}}}
}

func astArgs(args []*argInfo) ast.ArgumentDefinitionList {
	var out ast.ArgumentDefinitionList
	for _, a := range args {
		out = append(out, &ast.ArgumentDefinition{Name: a.name, Description: a.desc, Type: astType(a.typ),
			DefaultValue: a.defAST, Directives: deprecatedDirective(a.depr)})
	}
	return out
}

// buildAST produces the gqlparser schema that validates documents.
func (s *Schema) buildAST() (*ast.Schema, error) {
	doc := &ast.SchemaDocument{}
	for _, t := range s.types {
		def := &ast.Definition{Name: t.TypeName(), BuiltIn: isIntrospectionName(t.TypeName())}
		switch x := t.(type) {
		case BuiltinScalar:
			def.Kind, def.Description, def.BuiltIn = ast.Scalar, x.Description(), true
		case *Scalar:
			def.Kind, def.Description = ast.Scalar, x.Description
			if x.SpecifiedByURL != "" {
				def.Directives = ast.DirectiveList{{Name: "specifiedBy", Arguments: ast.ArgumentList{{Name: "url",
					Value: &ast.Value{Kind: ast.StringValue, Raw: x.SpecifiedByURL}}}}}
			}
		case *Enum:
			def.Kind, def.Description = ast.Enum, x.Description
			for _, v := range x.Values {
				def.EnumValues = append(def.EnumValues, &ast.EnumValueDefinition{Name: v.Name, Description: v.Description,
					Directives: deprecatedDirective(v.DeprecationReason)})
			}
		case *InputObject:
			def.Kind, def.Description = ast.InputObject, x.Description
			for _, f := range s.inputs[x].fields {
				def.Fields = append(def.Fields, &ast.FieldDefinition{Name: f.name, Description: f.desc, Type: astType(f.typ),
					DefaultValue: f.defAST, Directives: deprecatedDirective(f.depr)})
			}
		case *Object:
			def.Kind, def.Description = ast.Object, x.Description
			for _, f := range s.objects[x].fields {
				def.Fields = append(def.Fields, &ast.FieldDefinition{Name: f.name, Description: f.desc, Type: astType(f.typ),
					Arguments: astArgs(f.args), Directives: deprecatedDirective(f.depr)})
			}
		}
		doc.Definitions = append(doc.Definitions, def)
	}
	for _, d := range specifiedDirectives() {
		dd := &ast.DirectiveDefinition{Name: d.name, Description: d.desc, Arguments: astArgs(d.args)}
		for _, l := range d.locations {
			dd.Locations = append(dd.Locations, ast.DirectiveLocation(l))
		}
		doc.Directives = append(doc.Directives, dd)
	}
	root := &ast.SchemaDefinition{Description: s.description}
	root.OperationTypes = append(root.OperationTypes, &ast.OperationTypeDefinition{Operation: ast.Query, Type: s.query.name})
	if s.mutation != nil {
		root.OperationTypes = append(root.OperationTypes, &ast.OperationTypeDefinition{Operation: ast.Mutation, Type: s.mutation.name})
	}
	doc.Schema = append(doc.Schema, root)
	out, err := validator.ValidateSchemaDocument(doc)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// buildRules returns the validation rules with introspection allowed, and
// the private set: introspection refused and no "Did you mean" suggestions.
func (s *Schema) buildRules() (public, private *rules.Rules) {
	public = rules.NewDefaultRules()
	public.AddRule("GqlkitLiteralValues", s.literalValuesRule)
	public.ReplaceRule("ValuesOfCorrectType", valuesOfCorrectType(rules.ValuesOfCorrectTypeRule.RuleFunc))
	public.ReplaceRule("OverlappingFieldsCanBeMerged", overlapRule)

	private = rules.NewDefaultRules()
	private.AddRule("GqlkitLiteralValues", s.literalValuesRule)
	private.ReplaceRule("ValuesOfCorrectType", valuesOfCorrectType(rules.ValuesOfCorrectTypeRuleWithoutSuggestions.RuleFunc))
	private.ReplaceRule("OverlappingFieldsCanBeMerged", overlapRule)
	for _, r := range []core.Rule{
		rules.FieldsOnCorrectTypeRuleWithoutSuggestions,
		rules.KnownArgumentNamesRuleWithoutSuggestions,
		rules.KnownTypeNamesRuleWithoutSuggestions,
		rules.ScalarLeafsRuleWithoutSuggestions,
	} {
		base := r.Name[:len(r.Name)-len("WithoutSuggestions")]
		private.ReplaceRule(base, r.RuleFunc)
	}
	private.AddRule("GqlkitNoIntrospection", noIntrospectionRule)
	return capRules(public), capRules(private)
}

// maxErrorsPerRule bounds the errors one rule reports for one document.
// gqlparser's rules report every fault (10 000 undefined variables make
// 10 000 errors); past the cap, further reports are dropped before their
// messages are even formatted.
const maxErrorsPerRule = 100

func capRules(r *rules.Rules) *rules.Rules {
	for name, fn := range r.GetInner() {
		r.ReplaceRule(name, func(observers *core.Events, addError core.AddErrFunc) {
			left := maxErrorsPerRule
			fn(observers, func(options ...core.ErrorOption) {
				if left > 0 {
					left--
					addError(options...)
				}
			})
		})
	}
	return r
}

// valuesOfCorrectType wraps gqlparser's rule, which refuses an Int literal
// beyond 64 bits even where graphql-js accepts it: as a Float (1e20) or as
// an ID (the digits as a string). It also drops what the rule reports at a
// variable: gqlparser checks the variable's default there again (graphql-js
// checks it once, where it is written), and a default it cannot read, such
// as a 20-digit ID, was refused at every use.
func valuesOfCorrectType(inner core.RuleFunc) core.RuleFunc {
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

// literalValuesRule checks what gqlparser's ValuesOfCorrectType leaves out:
// Int literals beyond 32 bits and literals of custom scalars.
func (s *Schema) literalValuesRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, value *ast.Value) {
		if value.Definition == nil || value.Definition.Kind != ast.Scalar || value.ExpectedType == nil {
			return
		}
		switch value.Definition.Name {
		case "Int":
			if value.Kind != ast.IntValue {
				return
			}
			n, err := strconv.ParseInt(value.Raw, 10, 64)
			if err == nil && (n < math.MinInt32 || n > math.MaxInt32) { // beyond 64 bits, gqlparser reports it
				addError(core.Message("Int cannot represent non 32-bit signed integer value: %s", value.Raw), core.At(value.Position))
			}
		case "Float", "String", "Boolean", "ID":
		default:
			sc, ok := s.named[value.Definition.Name].(*Scalar)
			if !ok || value.Kind == ast.NullValue || hasVariables(value) {
				return
			}
			if _, err := s.parseScalarLiteral(sc, value, nil); err != nil {
				var pe *PanicError
				if errors.As(err, &pe) {
					// A server bug, not a bad document: kept as the cause
					// so that the HTTP layer masks and logs it.
					addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
						core.At(value.Position), func(e *gqlerror.Error) { e.Err = pe })
					return
				}
				var nv noValueError
				if errors.As(err, &nv) {
					addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
						core.At(value.Position))
					return
				}
				if ge := graphQLError(err); ge != nil {
					// graphql-js reports a GraphQLError from parseLiteral
					// as it is: its message and its extensions.
					addError(core.Message("%s", ge.Message), core.At(value.Position),
						func(e *gqlerror.Error) { e.Extensions = ge.Extensions })
					return
				}
				addError(core.Message("Expected value of type %q, found %s; %s", value.ExpectedType.String(), value.String(), errorText(err)),
					core.At(value.Position))
			}
		}
	})
}

func noIntrospectionRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnField(func(_ *core.Walker, field *ast.Field) {
		if field.Name == "__schema" || field.Name == "__type" {
			addError(core.Message("GraphQL introspection is not allowed, but the query contained %s.", field.Name),
				core.At(field.Position))
		}
	})
}

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
func (s *Schema) Validate(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List) {
	r := s.rules
	if opts.DisableIntrospection {
		r = s.rulesPrivate
	}
	defer func() {
		if p := recover(); p != nil {
			errs = gqlerror.List{{Message: fmt.Sprintf("The document could not be validated: %v", p)}}
		}
	}()
	if err := checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}
	}
	return dedupe(validator.ValidateWithRules(s.ast, doc, r))
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
