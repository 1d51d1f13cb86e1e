package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// The cost of an operation (see [Cost]) is computed in two steps. Once per
// Operation, the first time it is asked for, its plan is folded into a
// plan.CostSet: every field whose cost the variables cannot change (its size
// and the sizes below it are literals, defaults or Size) is added into a
// constant, and only the fields whose size is a variable, or that hold
// such a field, are kept as a tree. Then, for each execution, that tree is
// evaluated under the coerced variables. A document whose sizes are all
// literal costs a load per request; one whose sizes are variables walks
// only the fields on the way to them. Neither allocates.

// compileCost checks a field's Cost and keeps it in fi: SizeArg must name
// an argument of the field, of type Int or Int!.
func (b *builder) compileCost(fi *schema.Field, f Field) {
	c := f.Cost
	fi.Cost = schema.Cost{Weight: c.Weight, Size: c.Size, MaxSize: c.MaxSize, NullAbsent: c.NullSizeAsAbsent}
	if c.MaxSize < 0 {
		b.errorf("graphql: field %s: Cost.MaxSize is %d; it must not be negative (0 means no maximum)", fi.Coord, c.MaxSize)
	}
	switch {
	case c.Weight == 0:
		fi.Cost.Weight = 1
	case c.Weight < 0:
		fi.Cost.Weight = 0
	}
	switch {
	case c.Size == 0:
		fi.Cost.Size = 1
	case c.Size < 0:
		fi.Cost.Size = 0
	}
	if c.SizeArg == "" {
		return
	}
	var declared *Argument
	for i := range f.Args {
		if f.Args[i].Name == c.SizeArg {
			declared = &f.Args[i]
			break
		}
	}
	if declared == nil {
		b.errorf("graphql: field %s: Cost.SizeArg %q is not an argument of the field", fi.Coord, c.SizeArg)
		return
	}
	if !isIntType(declared.Type) {
		b.errorf("graphql: field %s: Cost.SizeArg %q is of type %s; it must be Int or Int!", fi.Coord, c.SizeArg, typeString(declared.Type))
		return
	}
	for _, a := range fi.Args {
		if a.Name == c.SizeArg {
			fi.Cost.SizeArg = a
		}
	}
	// An argument that did not compile was reported already.
}

// isIntType reports whether t is Int or Int!.
func isIntType(t Type) bool {
	if nn, ok := t.(*NonNull); ok && nn != nil {
		t = nn.OfType
	}
	k, ok := t.(BuiltinScalar)
	return ok && k == Int
}
