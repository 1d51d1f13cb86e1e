package coerce

import "reflect"

// emptyList is an empty input list, boxed once: a value with neither
// length nor capacity cannot be changed through, so every empty list the
// engine hands out is this one, without an allocation each. Never
// assigned.
var emptyList any = []any{}

// Clone copies the maps and slices the engine builds for input
// values (map[string]any and []any). Other values are returned as they
// are: numbers, strings and booleans cannot be changed, enum values are the
// schema's, and custom scalar values were made for this request. A map or
// a slice met twice (shared, or containing itself: only a caller's own
// value can be either) is copied once and the copy shared alike, so the
// copy costs one visit per map or slice, whatever its shape.
func Clone(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		c := cloner{}
		return c.value(v)
	}
	return v
}

// cloner copies one value, remembering the maps and lists it copied.
type cloner struct {
	maps  map[uintptr]map[string]any
	lists map[listID][]any
}

// listID identifies a list: its first item, and its length.
type listID struct {
	first uintptr
	n     int
}

// value returns the copy of v.
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
			return emptyList
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
