package plan

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// This file decides whether a selection counts under its @skip and
// @include directives: once, when the operation is planned, for literal
// conditions, and for every execution for conditions on variables.

// StaticCondition evaluates the @skip/@include directives of a selection
// without variables: true/false when static, or dynamic with the
// directives to check at execution time.
func StaticCondition(dirs ast.DirectiveList) (include bool, dynamic []*ast.Directive) {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		arg := d.Arguments.ForName("if")
		if arg == nil || arg.Value == nil {
			continue
		}
		if arg.Value.Kind == ast.Variable {
			dynamic = append(dynamic, d)
			continue
		}
		v := arg.Value.Kind == ast.BooleanValue && arg.Value.Raw == "true"
		if d.Name == "skip" && v || d.Name == "include" && !v {
			return false, nil
		}
	}
	return true, dynamic
}

// Conditions evaluates the variable @skip/@include conditions of one
// execution. A null variable is an error, as in graphql-js: the selection it
// sits in fails; Err keeps the first such error.
type Conditions struct {
	Vars map[string]any
	Err  *ConditionError
}

// ConditionError is the error of a selection whose condition is a null
// variable.
type ConditionError struct {
	Msg  string
	Locs []gqlerror.Location
}

// Holds reports whether every directive of conds lets its selection in.
func (c *Conditions) Holds(conds []*ast.Directive) bool {
	for _, d := range conds {
		arg := d.Arguments.ForName("if")
		v, present := c.Vars[arg.Value.Raw]
		b, isBool := v.(bool)
		if present && !isBool {
			if c.Err == nil {
				c.Err = &ConditionError{Msg: `Argument "if" of non-null type "Boolean!" must not be null.`,
					Locs: []gqlerror.Location{{Line: arg.Value.Position.Line, Column: arg.Value.Position.Column}}}
			}
			return false
		}
		if d.Name == "skip" && b || d.Name == "include" && !b {
			return false
		}
	}
	return true
}

// An Occurrence is one field node selected under a response key. The same node
// may be reached several times (a fragment spread twice), each time under
// its own conditions and at its own place in the collection order.
type Occurrence struct {
	Field *ast.Field
	Alts  []Alt
	Uncon bool // some alternative has no condition: it always counts
}

// An Alt is one way an occurrence was reached: the variable conditions that
// must all hold, and its place in the collection order.
type Alt struct {
	Conds []*ast.Directive
	Seq   int
}

// Counts reports whether the occurrence counts under the conditions, and
// its first place in the collection order when it does.
func (o *Occurrence) Counts(c *Conditions) (ok bool, seq int) {
	seq = -1
	for _, a := range o.Alts {
		if c.Holds(a.Conds) && (seq < 0 || a.Seq < seq) {
			seq = a.Seq
		}
	}
	return seq >= 0, seq
}
