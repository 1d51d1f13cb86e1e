package graphql

import (
	"encoding/json"
	"reflect"
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
func (a Args) Value(name string) any { return cloneValue(a.m[name]) }

// Int returns an Int value, or 0 when it is absent or null.
func (a Args) Int(name string) int { n, _ := a.m[name].(int); return n }

// Float returns a Float value, or 0 when it is absent or null.
func (a Args) Float(name string) float64 { f, _ := a.m[name].(float64); return f }

// String returns a String or ID value, or "" when it is absent or null.
func (a Args) String(name string) string { s, _ := a.m[name].(string); return s }

// Bool returns a Boolean value, or false when it is absent or null.
func (a Args) Bool(name string) bool { b, _ := a.m[name].(bool); return b }

// Input returns the fields of an input-object value, read-only like a;
// it is empty when name is absent, null or not an input object.
func (a Args) Input(name string) Args { m, _ := a.m[name].(map[string]any); return Args{m: m} }

// List returns a copy of a list value, or nil when it is absent, null or
// not a list.
func (a Args) List(name string) []any { l, _ := a.m[name].([]any); return cloneList(l) }

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

// cloneValue copies the maps and slices the engine builds for input
// values (map[string]any and []any). Other values are returned as they
// are: numbers, strings and booleans cannot be changed, enum values are the
// schema's, and custom scalar values were made for this request. A map or
// a slice met twice (shared, or containing itself: only a caller's own
// value can be either) is copied once and the copy shared alike, so the
// copy costs one visit per map or slice, whatever its shape.
func cloneValue(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		c := cloner{}
		return c.value(v)
	}
	return v
}

type cloner struct {
	maps  map[uintptr]map[string]any
	lists map[listID][]any
}

type listID struct {
	first uintptr
	n     int
}

func (c *cloner) value(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		id := reflect.ValueOf(x).Pointer()
		if done, ok := c.maps[id]; ok {
			return done
		}
		if c.maps == nil {
			c.maps = map[uintptr]map[string]any{}
		}
		out := make(map[string]any, len(x))
		c.maps[id] = out
		for k, e := range x {
			out[k] = c.value(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		if len(x) == 0 {
			return []any{}
		}
		id := listID{reflect.ValueOf(x).Pointer(), len(x)}
		if done, ok := c.lists[id]; ok {
			return done
		}
		if c.lists == nil {
			c.lists = map[listID][]any{}
		}
		out := make([]any, len(x))
		c.lists[id] = out
		for i, e := range x {
			out[i] = c.value(e)
		}
		return out
	}
	return v
}

func cloneMap(m map[string]any) map[string]any {
	out, _ := cloneValue(m).(map[string]any)
	return out
}

func cloneList(l []any) []any {
	out, _ := cloneValue(l).([]any)
	return out
}
