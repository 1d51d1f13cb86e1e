package graphql

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file builds the output side of a schema: each object's fields, with
// their resolvers and the middleware that wraps them.

func (b *builder) compileObject(o *Object) {
	info := b.s.objects[o]
	b.eachField("object", o, info.ByName, func(f Field, coord string) {
		// bound is a typed or batch resolver bound to the engine's
		// signature, which it is called with directly when nothing wraps it.
		var typed *typedField
		var bound schema.Resolver
		if f.Typed != nil {
			sig := f.Typed.signature()
			dec := b.decs.of(sig.args)
			resolve := f.Typed.bind(coord, dec)
			switch {
			case f.Resolve != nil:
				b.errorf("graphql: field %s has both Typed and Resolve; give it one resolver", coord)
			case resolve == nil:
				b.errorf("graphql: field %s: the typed resolver's function is nil", coord)
			default:
				bound = resolve
				typed = &typedField{obj: o, sig: sig, dec: dec}
			}
		}
		batch := false
		if f.Batch != nil {
			sig := f.Batch.signature()
			dec := b.decs.of(sig.args)
			resolve := f.Batch.bind(coord, dec)
			switch {
			case f.Resolve != nil || f.Typed != nil:
				b.errorf("graphql: field %s has Batch and another resolver; give it one resolver", coord)
			case resolve == nil:
				b.errorf("graphql: field %s: the batch resolver's function is nil", coord)
			default:
				bound, batch, info.Batched = resolve, true, true
				typed = &typedField{obj: o, sig: sig, dec: dec}
			}
		}
		fi := &schema.Field{Name: f.Name, Type: b.s.ref(f.Type), Traced: f.Resolve != nil || bound != nil, Batch: batch,
			Desc: f.Description, Depr: f.DeprecationReason, Coord: coord, Public: f.Public}
		fi.Read.Name = f.Name
		fi.Read.Leaf, fi.Read.NonNull = leafOf(f.Type)
		b.compileArgs(fi, f.Args)
		fi.Resolve = b.engineResolver(coord, fi, f, bound)
		b.compileCost(fi, f)
		if typed != nil {
			typed.field = fi
			b.typed = append(b.typed, *typed)
		}
		info.Fields = append(info.Fields, fi)
		info.ByName[f.Name] = fi
	})
}

// eachField calls compile with each field of t, an object or an interface
// (kind), whose name and type are fit to compile (see fieldHead), and its
// coordinates; it reports a type without fields.
func (b *builder) eachField(kind string, t NamedType, byName map[string]*schema.Field, compile func(f Field, coord string)) {
	name := t.TypeName()
	fs := b.fieldsOf(t)
	if len(fs) == 0 && !b.broken[t] {
		b.errorf("graphql: %s %s has no fields", kind, name)
	}
	for _, f := range fs {
		coord := name + "." + f.Name
		if b.fieldHead(kind+" "+name, coord, f, byName) {
			compile(f, coord)
		}
	}
}

// fieldHead checks the name and type of field f of owner ("object Name"),
// at coordinates coord, against the fields byName already compiled. It
// reports false when the field is not to be compiled further.
func (b *builder) fieldHead(owner, coord string, f Field, byName map[string]*schema.Field) bool {
	if !validName(f.Name) || isIntrospectionName(f.Name) {
		b.errorf("graphql: %s: %q is not a valid field name", owner, f.Name)
		return false
	}
	if _, dup := byName[f.Name]; dup {
		b.errorf("graphql: %s: field %s is defined twice", owner, f.Name)
		return false
	}
	if namedOf(f.Type) == nil {
		return false // reported when the types were collected
	}
	if !isOutputType(f.Type) {
		b.errorf("graphql: field %s is of input type %s; fields need an output type (scalar, enum, object, interface or union)", coord, typeString(f.Type))
		return false
	}
	return true
}

// compileArgs compiles the arguments of field fi.
func (b *builder) compileArgs(fi *schema.Field, args []Argument) {
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a.Name] {
			b.errorf("graphql: field %s: argument %s is defined twice", fi.Coord, a.Name)
			continue
		}
		seen[a.Name] = true
		ai := b.compileInputValue("field "+fi.Coord, a.Name, a.Type, a.Default, a.Description, a.DeprecationReason, a.Rules)
		if ai != nil {
			b.coerceDefault(ai)
			fi.Args = append(fi.Args, ai)
			fi.FreshArgs = fi.FreshArgs || b.s.holdsCustomScalar(ai.Type)
			ai.Checked = len(ai.Rules) > 0 || coerce.InputChecked(ai.Type)
			fi.Checked = fi.Checked || ai.Checked
		}
	}
}

// engineResolver returns the resolver the engine calls for field f (nil
// for a field read from its parent): bound, f's typed or batch resolver
// already in the engine's form, when nothing wraps it; otherwise f's
// resolver wrapped as withMiddleware says, adapted once.
func (b *builder) engineResolver(coord string, fi *schema.Field, f Field, bound schema.Resolver) schema.Resolver {
	if bound != nil {
		if !fi.Checked && len(b.cfg.FieldMiddleware) == 0 && len(f.Middleware) == 0 {
			return bound
		}
		f.Resolve = resolveFunc(bound)
	}
	return adapt(b.withMiddleware(coord, fi, f))
}

// adapt makes r the resolver the engine calls, nil when r is nil.
func adapt(r ResolveFunc) schema.Resolver {
	if r == nil {
		return nil
	}
	return func(ctx context.Context, parent any, args map[string]any, info schema.Info) (any, error) {
		return r(ctx, parent, Args{m: args}, ResolveInfo{info})
	}
}

// resolveFunc makes r, an engine resolver, a ResolveFunc, for the
// middleware around it.
func resolveFunc(r schema.Resolver) ResolveFunc {
	return func(ctx context.Context, parent any, args Args, info ResolveInfo) (any, error) {
		return r(ctx, parent, args.m, info.in)
	}
}

// withMiddleware composes the resolver of field f (coordinates coord) with
// the checks of its arguments' rules, innermost, and the schema-wide
// middleware and its own around them, in the order [FieldMiddleware]
// describes (so an authorization check answers before the rules). A field
// without Resolve keeps none unless rules or some middleware apply to it,
// and is then wrapped around its default resolution.
func (b *builder) withMiddleware(coord string, fi *schema.Field, f Field) (resolve ResolveFunc) {
	var chain []FieldMiddleware
	if f.Resolve != nil || b.cfg.MiddlewareOnDefaultFields {
		chain = append(chain, b.cfg.FieldMiddleware...)
	}
	chain = append(chain, f.Middleware...)
	resolve = f.Resolve
	if resolve == nil && (fi.Checked || len(chain) > 0) {
		resolve = defaultResolver(fi)
	}
	if fi.Checked {
		resolve = b.s.validating(fi, resolve)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		mw := chain[i]
		if mw == nil {
			b.errorf("graphql: field %s: middleware %d is nil", coord, i)
			return f.Resolve
		}
		next, err := applyMiddleware(mw, resolve)
		switch {
		case err != nil:
			b.errorf("graphql: field %s: middleware %d: %v", coord, i, err)
			return f.Resolve
		case next == nil:
			b.errorf("graphql: field %s: middleware %d returned a nil resolver", coord, i)
			return f.Resolve
		}
		resolve = next
	}
	return resolve
}

// applyMiddleware calls mw, turning its panic into an error.
func applyMiddleware(mw FieldMiddleware, next ResolveFunc) (out ResolveFunc, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panicked: %v", r)
		}
	}()
	return mw(next), nil
}

// checkPublic refuses Field.Public on a field of an object other than
// mutation, the root of mutations (nil when there is none).
func (b *builder) checkPublic(mutation *Object) {
	for _, t := range b.s.types {
		o, ok := t.(*Object)
		if !ok || o == mutation {
			continue
		}
		for _, fi := range b.s.objects[o].Fields {
			if fi.Public {
				b.errorf("graphql: field %s is Public, which only fields of the mutation type can be", fi.Coord)
			}
		}
	}
}

// checkBatch refuses Field.Batch on a field of mutation, the root of
// mutations (nil when there is none): its fields run one after another,
// each for the one root value, which batching ahead would reorder.
func (b *builder) checkBatch(mutation *Object) {
	if mutation == nil || b.s.objects[mutation] == nil {
		return
	}
	for _, fi := range b.s.objects[mutation].Fields {
		if fi.Batch {
			b.errorf("graphql: field %s has a batch resolver, which mutation fields cannot have: they run one after another; give it Resolve or Typed", fi.Coord)
		}
	}
}

// leafOf returns how t is written by the direct path, and whether a list
// type is non-null (a nil slice is then [], not null).
func leafOf(t Type) (access.Leaf, bool) {
	nonNull := false
	if nn, ok := t.(*NonNull); ok {
		t, nonNull = nn.OfType, true
	}
	if l, ok := t.(*List); ok {
		of := l.OfType
		if nn, ok := of.(*NonNull); ok {
			of = nn.OfType
		}
		if k, _ := of.(BuiltinScalar); k == String || k == ID {
			return access.LeafStrings, nonNull
		}
		return access.LeafNone, false
	}
	switch k, _ := t.(BuiltinScalar); k {
	case String, ID:
		return access.LeafString, false
	case Int:
		return access.LeafInt, false
	case Boolean:
		return access.LeafBoolean, false
	}
	return access.LeafNone, false
}
