package graphql

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// SchemaConfig describes a schema. Query is required; the other fields are
// optional.
type SchemaConfig struct {
	// Query is the root type of query operations.
	Query *Object
	// Mutation is the root type of mutation operations; nil means the schema
	// has no mutations.
	Mutation *Object
	// Types lists named types that should be part of the schema even though
	// no field refers to them, such as an object that implements an
	// interface but that no field returns (it is one of the interface's
	// possible objects only if it is in the schema). They come first in
	// the type order.
	Types []NamedType
	// Description is the schema's description, shown by introspection.
	Description string

	// FieldMiddleware wraps the resolver of every field that has one
	// (Field.Resolve), in the order described at [FieldMiddleware];
	// introspection fields are never wrapped. With
	// MiddlewareOnDefaultFields, it also wraps the fields read from their
	// parent value.
	FieldMiddleware []FieldMiddleware
	// MiddlewareOnDefaultFields applies FieldMiddleware to the fields
	// without a resolver too. Off by default: most such fields read a
	// struct field, and wrapping them costs a call per value.
	MiddlewareOnDefaultFields bool
}

// Schema is a built, validated schema, ready to validate and execute
// documents. It is safe for concurrent use; it reads the definitions given
// to [NewSchema], which must not be changed afterwards.
type Schema struct {
	// c is what planning and execution read: the root objects and the
	// introspection fields; and what introspection reads.
	c *schema.Schema

	types   []NamedType // every named type, in graphql-js's collection order
	named   map[string]NamedType
	objects map[*Object]*schema.Object
	inputs  map[*InputObject]*schema.Input
	enums   map[*Enum]*schema.Enum
	// abstracts holds every interface and union, keyed by the *Interface
	// or *Union (see abstractinfo.go).
	abstracts map[NamedType]*schema.Abstract
	// nodes holds the compiled node of every named type (typeref.go).
	nodes map[NamedType]*schema.Type

	ast       *ast.Schema
	validator *validation.Validator
}

// NewSchema builds and checks a schema. Every problem found in the
// definitions is reported (joined with [errors.Join]); NewSchema never
// panics on bad definitions.
func NewSchema(cfg SchemaConfig) (s *Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("graphql: building the schema panicked: %v", r)
		}
	}()
	b := &builder{
		seen:    map[string]NamedType{},
		fields:  map[NamedType]Fields{},
		intro:   map[NamedType]bool{},
		where:   map[string]string{},
		clash:   map[NamedType]bool{},
		pending: map[*schema.Arg]any{},
		state:   map[*InputObject]defaultsState{},
		broken:  map[NamedType]bool{},
		decs:    decoders{},
	}
	return b.build(cfg)
}

// MustSchema is like [NewSchema] but panics on error. It is meant for tests
// and examples whose schema is fixed.
func MustSchema(cfg SchemaConfig) *Schema {
	s, err := NewSchema(cfg)
	if err != nil {
		panic(err)
	}
	return s
}

// AST returns the gqlparser schema used to validate documents. It must be
// treated as read-only.
func (s *Schema) AST() *ast.Schema { return s.ast }

// Type returns the named type called name, or nil.
func (s *Schema) Type(name string) NamedType { return s.named[name] }

// Types returns every named type of the schema, built-in and introspection
// types included, in a stable order: the order in which graphql-js would
// collect them (explicit Types, then everything reachable from Query and
// Mutation depth-first, an object's or interface's interfaces before its
// fields in field order and a union's members in order, then the types of
// directive arguments and the introspection types).
func (s *Schema) Types() []NamedType { return append([]NamedType(nil), s.types...) }

type builder struct {
	s       *Schema
	cfg     SchemaConfig
	errs    []error
	seen    map[string]NamedType
	order   []NamedType
	fields  map[NamedType]Fields // of objects and interfaces, read once
	intro   map[NamedType]bool   // the mirrors of the introspection types (introspection.go)
	where   map[string]string    // where each name was first seen
	clash   map[NamedType]bool   // types already reported as name clashes
	pending map[*schema.Arg]any  // defaults still to coerce
	state   map[*InputObject]defaultsState
	broken  map[NamedType]bool // objects and interfaces whose FieldsFunc panicked
	decs    decoders           // the decode plans of typed resolvers' args
	typed   []typedField       // fields with typed resolvers, checked last
}

// defaultsState is how far the field defaults of an input object are
// coerced (see builder.inputDefaults).
type defaultsState uint8

const (
	defaultsPending  defaultsState = iota // not yet
	defaultsCoercing                      // under way: a cycle of input objects closes here
	defaultsCoerced
)

func (b *builder) errorf(format string, args ...any) {
	b.errs = append(b.errs, fmt.Errorf(format, args...))
}

func (b *builder) build(cfg SchemaConfig) (*Schema, error) {
	s := &Schema{
		c:         &schema.Schema{Description: cfg.Description, Named: map[string]*schema.Type{}},
		named:     map[string]NamedType{},
		objects:   map[*Object]*schema.Object{},
		inputs:    map[*InputObject]*schema.Input{},
		enums:     map[*Enum]*schema.Enum{},
		abstracts: map[NamedType]*schema.Abstract{},
		nodes:     map[NamedType]*schema.Type{},
	}
	b.s, b.cfg = s, cfg
	if cfg.Query == nil {
		return nil, errors.New("graphql: SchemaConfig.Query is required")
	}
	introSchema := b.introspection()
	for _, t := range cfg.Types {
		if t == nil || isNilType(t) {
			b.errorf("graphql: SchemaConfig.Types contains a nil type")
			continue
		}
		b.collect(t, "SchemaConfig.Types")
	}
	b.collect(cfg.Query, "SchemaConfig.Query")
	if cfg.Mutation != nil {
		b.collect(cfg.Mutation, "SchemaConfig.Mutation")
	}
	// Directive argument types, as graphql-js collects them.
	b.collect(Boolean, "directives")
	b.collect(String, "directives")
	b.collect(introSchema, "introspection")
	if cfg.Mutation == cfg.Query {
		b.errorf("graphql: Query and Mutation must be different types")
	}
	// Go on even after collection problems, so that every problem of the
	// definitions is reported at once.
	s.types = b.order

	// Compile every type.
	for _, t := range s.types {
		s.named[t.TypeName()] = t
		node := s.nodes[t] // made already for introspection's types, Boolean and String
		if node == nil {
			node = s.newNode(t)
			s.nodes[t] = node
		}
		s.c.Named[node.Name] = node
		if b.intro[t] {
			b.useIntrospection(t)
			continue
		}
		switch x := t.(type) {
		case *Enum:
			s.enums[x] = b.compileEnum(x)
			s.c.PointerEnums = s.c.PointerEnums || s.enums[x].Pointers
			node.Enum = s.enums[x]
		case *InputObject:
			s.inputs[x] = &schema.Input{ByName: map[string]*schema.Arg{}}
			node.Input = s.inputs[x]
		case *Object:
			s.objects[x] = &schema.Object{Type: node, Name: x.Name, ByName: map[string]*schema.Field{}, IsTypeOf: x.IsTypeOf}
			node.Object = s.objects[x]
		case *Interface, *Union:
			s.abstracts[x] = newAbstractInfo(x, node)
			s.c.Abstract = true
			node.Abstract = s.abstracts[x]
		case *Scalar:
			b.checkScalar(x)
		}
	}
	s.declareInterfaces()
	if str := s.nodes[String]; str != nil {
		s.c.Typename = &schema.Type{Kind: schema.KindNonNull, Of: str, Def: NewNonNull(String)}
	}
	// Input fields and arguments need every enum and input object compiled
	// (their defaults are coerced), so they come second.
	for _, t := range s.types {
		if x, ok := t.(*InputObject); ok {
			b.compileInput(x)
		}
	}
	// Input field defaults may hold other input objects, whose own field
	// defaults fill them in: coerce them in dependency order.
	for _, t := range s.types {
		if x, ok := t.(*InputObject); ok {
			b.inputDefaults(x)
		}
	}
	b.markChecked()
	for _, t := range s.types {
		switch x := t.(type) {
		case *Object:
			if !b.intro[x] {
				b.compileObject(x)
			}
		case *Interface:
			b.compileInterface(x)
		}
	}
	b.compileAbstracts()
	b.checkAbstracts()
	b.checkTyped()
	b.checkPublic(cfg.Mutation)
	b.checkBatch(cfg.Mutation)
	if len(b.errs) > 0 {
		return nil, errors.Join(b.errs...)
	}
	s.c.Query = s.objects[cfg.Query]
	if cfg.Mutation != nil {
		s.c.Mutation = s.objects[cfg.Mutation]
	}
	s.c.Types = make([]*schema.Type, len(s.types))
	for i, t := range s.types {
		s.c.Types[i] = s.nodes[t]
	}
	s.c.StartField = func(t any, ctx context.Context, in schema.Info) context.Context {
		return t.(Tracer).StartField(ctx, ResolveInfo{in})
	}
	s.c.EndField = func(t any, ctx context.Context, in schema.Info, err error) {
		t.(Tracer).EndField(ctx, ResolveInfo{in}, err)
	}
	s.c.BatchParents = func(n int) (any, []any) {
		ps := make(BatchParents, n)
		return ps, ps
	}

	astSchema, err := s.buildAST()
	if err != nil {
		return nil, fmt.Errorf("graphql: the schema does not validate: %w", err)
	}
	s.ast = astSchema
	s.validator = s.newValidator()
	return s, nil
}

func isNilType(t Type) bool {
	v := reflect.ValueOf(t)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func isIntrospectionName(name string) bool { return len(name) > 1 && name[0] == '_' && name[1] == '_' }

// maxSchemaTypes bounds the named types of one schema: collecting them
// follows FieldsFunc thunks, and one that made new types on every call
// would otherwise never end.
const maxSchemaTypes = 10_000

// checkTypeRef reports a malformed wrapper chain (nil, or non-null of non-null).
func (b *builder) checkTypeRef(t Type, where string) bool {
	prevNonNull, nonNullOfNonNull := false, false
	inner, ok := walkType(t, func(wrapper Type) {
		_, nonNull := wrapper.(*NonNull)
		nonNullOfNonNull = nonNullOfNonNull || nonNull && prevNonNull
		prevNonNull = nonNull
	})
	if nonNullOfNonNull {
		b.errorf("graphql: %s is non-null of non-null", where)
		return false
	}
	if !ok {
		b.errorf("graphql: %s wraps more than %d lists and non-nulls (does a wrapper contain itself?)", where, maxTypeWrappers)
		return false
	}
	switch x := inner.(type) {
	case nil:
		b.errorf("graphql: %s has no type", where)
	case *List:
		b.errorf("graphql: %s has a nil list type", where)
	case *NonNull:
		b.errorf("graphql: %s has a nil non-null type", where)
	case BuiltinScalar:
		if x.valid() {
			return true
		}
		b.errorf("graphql: %s has the unknown built-in scalar %d", where, uint8(x))
	case *Scalar, *Enum, *InputObject, *Object, *Interface, *Union:
		if !isNilType(x) {
			return true
		}
		b.errorf("graphql: %s has a nil type", where)
	default:
		// Another implementation of Type (a struct embedding *Object,
		// say) is none of the kinds the engine knows.
		b.errorf("graphql: %s has an unsupported type %T", where, x)
	}
	return false
}

func (b *builder) collect(t Type, where string) {
	if !b.checkTypeRef(t, where) {
		return
	}
	nt := namedOf(t)
	name := nt.TypeName()
	if prev, ok := b.seen[name]; ok {
		if prev != nt && !b.clash[nt] {
			b.clash[nt] = true
			if _, ok := prev.(BuiltinScalar); ok {
				b.errorf("graphql: %s: the type name %q belongs to the built-in scalar", where, name)
			} else if _, ok := nt.(BuiltinScalar); ok {
				b.errorf("graphql: %s: the type name %q belongs to the built-in scalar", b.where[name], name)
			} else {
				b.errorf("graphql: two different types are named %q (%s and %s)", name, b.where[name], where)
			}
		}
		return
	}
	if !validName(name) {
		b.errorf("graphql: %s: %q is not a valid type name", where, name)
	} else if isIntrospectionName(name) && !b.intro[nt] {
		b.errorf("graphql: %s: type name %q must not begin with \"__\"", where, name)
	}
	if _, ok := nt.(*Scalar); ok {
		switch name {
		case "Int", "Float", "String", "Boolean", "ID":
			b.errorf("graphql: %s: custom scalar %q redefines a built-in scalar; use graphql.%s", where, name, name)
			return
		}
	}
	if len(b.order) == maxSchemaTypes {
		b.errorf("graphql: %s: the schema has more than %d types (does a FieldsFunc make new types on every call?)", where, maxSchemaTypes)
	}
	if len(b.order) >= maxSchemaTypes {
		return
	}
	b.seen[name] = nt
	b.where[name] = where
	b.order = append(b.order, nt)
	// The order is graphql-js's (collectReferencedTypes): an object's or
	// interface's interfaces before its fields, a union's members in order.
	switch x := nt.(type) {
	case *Object:
		b.collectInterfaces("object "+x.Name, x.Interfaces)
		b.collectFields(x, x.Name)
	case *Interface:
		b.collectInterfaces("interface "+x.Name, x.Interfaces)
		b.collectFields(x, x.Name)
	case *Union:
		for i, m := range x.Types {
			if m == nil {
				b.errorf("graphql: union %s: member %d is nil", x.Name, i)
				continue
			}
			b.collect(m, "union "+x.Name)
		}
	case *InputObject:
		for _, f := range x.Fields {
			b.collect(f.Type, x.Name+"."+f.Name)
		}
	}
}

// collectFields collects the types of the fields of t, an object or an
// interface called name, and of their arguments.
func (b *builder) collectFields(t NamedType, name string) {
	for _, f := range b.fieldsOf(t) {
		fw := name + "." + f.Name
		b.collect(f.Type, fw)
		for _, a := range f.Args {
			b.collect(a.Type, fw+"("+a.Name+":)")
		}
	}
}

// collectInterfaces collects the interfaces that owner (an object or an
// interface, "object Name") names.
func (b *builder) collectInterfaces(owner string, ifaces []*Interface) {
	for i, it := range ifaces {
		if it == nil {
			b.errorf("graphql: %s: interface %d of its Interfaces is nil", owner, i)
			continue
		}
		b.collect(it, owner+" Interfaces")
	}
}

// fieldsOf returns the fields of t, an object or an interface, reading its
// FieldSource the first time.
func (b *builder) fieldsOf(t NamedType) (fs Fields) {
	if fs, ok := b.fields[t]; ok {
		return fs
	}
	var src FieldSource
	switch x := t.(type) {
	case *Object:
		src = x.Fields
	case *Interface:
		src = x.Fields
	}
	if src != nil && !isNilFieldSource(src) {
		func() {
			defer func() {
				if r := recover(); r != nil {
					b.errorf("graphql: the fields of %s panicked: %v", t.TypeName(), r)
					b.broken[t] = true
					fs = nil
				}
			}()
			fs = src.fieldList()
		}()
	}
	b.fields[t] = fs
	return fs
}

func isNilFieldSource(f FieldSource) bool {
	v := reflect.ValueOf(f)
	return (v.Kind() == reflect.Func || v.Kind() == reflect.Slice) && v.IsNil()
}

func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
