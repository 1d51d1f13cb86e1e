package graphql

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
)

// Args is a read-only set of named input values: the coerced arguments of
// a field, the fields of an input object ([Args.Input]) or the coerced
// variables of an operation ([ResolveInfo.Variables]). An argument that was
// omitted and has no default is absent; an explicit null is present with a
// nil value. Values have their internal Go types: int for Int, float64 for
// Float, string for String and ID, bool for Boolean, the internal value for
// enums, an input object as a map[string]any, a list as a []any, and what
// ParseValue or ParseLiteral returned, for this request, for a custom
// scalar.
//
// Args cannot be changed: the engine shares one set between the executions
// of a cached document, so every accessor that returns a map or a slice
// returns a copy of its own. The zero Args is empty.
type Args struct{ m map[string]any }

// NewArgs returns Args holding a copy of values, for calling a resolver
// directly (in a test, say).
func NewArgs(values map[string]any) Args {
	if len(values) == 0 {
		return Args{}
	}
	return Args{m: cloneMap(values)}
}

// Len returns the number of values present.
func (a Args) Len() int { return len(a.m) }

// Has reports whether name is present (given, or filled in by a default),
// null included.
func (a Args) Has(name string) bool { _, ok := a.m[name]; return ok }

// Names returns the names present, sorted.
func (a Args) Names() []string { return sortedKeys(a.m) }

// Value returns the value of name (nil when it is absent or null); a map
// or a slice is copied, so that the caller may change it.
func (a Args) Value(name string) any { return coerce.Clone(a.m[name]) }

// Int returns an Int value, or 0 when it is absent or null. A value of
// another signed integer type (an enum's internal value of a type defined
// on int, say) is converted when it fits; anything else is an error, never
// a silent 0.
func (a Args) Int(name string) (int, error) {
	switch x := a.m[name].(type) {
	case int:
		return x, nil
	case nil:
		return 0, nil
	}
	rv := reflect.ValueOf(a.m[name])
	if rv.CanInt() && rv.Int() == int64(int(rv.Int())) {
		return int(rv.Int()), nil
	}
	return 0, a.typeError("Int", name)
}

// Float returns a Float value, or 0 when it is absent or null; an Int
// value, or a value of another float or signed integer type, is converted.
// Anything else is an error.
func (a Args) Float(name string) (float64, error) {
	switch x := a.m[name].(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case nil:
		return 0, nil
	}
	rv := reflect.ValueOf(a.m[name])
	switch {
	case rv.CanFloat():
		return rv.Float(), nil
	case rv.CanInt():
		return float64(rv.Int()), nil
	}
	return 0, a.typeError("Float", name)
}

// String returns a String or ID value, or "" when it is absent or null. A
// value of a type defined on string (an enum's internal value, such as
// Genre("sf")) is converted; anything else is an error.
func (a Args) String(name string) (string, error) {
	switch x := a.m[name].(type) {
	case string:
		return x, nil
	case nil:
		return "", nil
	}
	rv := reflect.ValueOf(a.m[name])
	if rv.Kind() == reflect.String {
		return rv.String(), nil
	}
	return "", a.typeError("String", name)
}

// Bool returns a Boolean value, or false when it is absent or null; any
// other value is an error.
func (a Args) Bool(name string) (bool, error) {
	switch x := a.m[name].(type) {
	case bool:
		return x, nil
	case nil:
		return false, nil
	}
	rv := reflect.ValueOf(a.m[name])
	if rv.Kind() == reflect.Bool {
		return rv.Bool(), nil
	}
	return false, a.typeError("Bool", name)
}

// Input returns the fields of an input-object value, read-only like a; it
// is empty when name is absent or null, and an error when the value is
// not an input object.
func (a Args) Input(name string) (Args, error) {
	switch x := a.m[name].(type) {
	case map[string]any:
		return Args{m: x}, nil
	case nil:
		return Args{}, nil
	}
	return Args{}, a.typeError("Input", name)
}

// List returns a copy of a list value, or nil when it is absent or null;
// a value that is not a list is an error.
func (a Args) List(name string) ([]any, error) {
	switch x := a.m[name].(type) {
	case []any:
		return cloneList(x), nil
	case nil:
		return nil, nil
	}
	return nil, a.typeError("List", name)
}

// typeError is the error of an accessor that cannot read name's value: a
// mistake in the resolver, which the client sees as an internal error.
func (a Args) typeError(accessor, name string) error {
	return fmt.Errorf("graphql: Args.%s(%q): the value is a %T", accessor, name, a.m[name])
}

// Map returns a copy of every value, keyed by name (nil when a is empty).
func (a Args) Map() map[string]any {
	if a.m == nil {
		return nil
	}
	return cloneMap(a.m)
}

// MarshalJSON writes the values as a JSON object, as encoding/json writes
// a map[string]any.
func (a Args) MarshalJSON() ([]byte, error) {
	if a.m == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(a.m)
}

func cloneMap(m map[string]any) map[string]any {
	out, _ := coerce.Clone(m).(map[string]any)
	return out
}

func cloneList(l []any) []any {
	out, _ := coerce.Clone(l).([]any)
	return out
}
