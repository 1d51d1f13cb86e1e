package graphql

import "encoding/json"

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
	return Args{m: cloneValue(values, 0).(map[string]any)}
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
func (a Args) Value(name string) any { return cloneValue(a.m[name], 0) }

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
func (a Args) List(name string) []any { l, _ := a.m[name].([]any); return cloneList(l, 0) }

// Map returns a copy of every value, keyed by name (nil when a is empty).
func (a Args) Map() map[string]any {
	if a.m == nil {
		return nil
	}
	return cloneMap(a.m, 0)
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
// schema's, and custom scalar values were made for this request. Values
// the engine builds nest at most maxInputDepth deep; past maxCloneDepth
// (only a caller's self-containing map passed to NewArgs goes there) the
// value is kept as it is rather than followed for ever.
func cloneValue(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneMap(x, depth)
	case []any:
		return cloneList(x, depth)
	}
	return v
}

const maxCloneDepth = maxInputDepth + 8

func cloneMap(m map[string]any, depth int) map[string]any {
	if m == nil || depth > maxCloneDepth {
		return m
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v, depth+1)
	}
	return out
}

func cloneList(l []any, depth int) []any {
	if l == nil || depth > maxCloneDepth {
		return l
	}
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = cloneValue(v, depth+1)
	}
	return out
}
