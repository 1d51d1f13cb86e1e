package response

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Inspect renders a value for an error message as graphql-js does: at
// most 10 items a list or object, and nothing below two levels of nesting,
// so that a hostile value cannot make a huge or costly message.
func Inspect(v any) string { return inspectDepth(v, 0) }

const (
	inspectMaxItems = 10
	inspectMaxDepth = 2
)

func inspectDepth(v any, depth int) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return string(AppendString(nil, x))
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return string(x)
	case []any:
		if len(x) == 0 {
			return "[]"
		}
		if depth > inspectMaxDepth {
			return "[Array]"
		}
		n := min(len(x), inspectMaxItems)
		parts := make([]string, 0, n+1)
		for _, e := range x[:n] {
			parts = append(parts, inspectDepth(e, depth+1))
		}
		parts = append(parts, moreItems(len(x)-n)...)
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
		if depth > inspectMaxDepth {
			return "[Object]"
		}
		keys := firstKeys(x, inspectMaxItems)
		parts := make([]string, 0, len(keys)+1)
		for _, k := range keys {
			parts = append(parts, k+": "+inspectDepth(x[k], depth+1))
		}
		parts = append(parts, moreItems(len(x)-len(keys))...)
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	if f, ok := NumberOf(v); ok {
		return NumberString(v, f)
	}
	return inspectOther(v, depth)
}

// inspectOther renders any other Go value with the same bounds. It walks
// slices, maps, structs and pointers itself (fmt would follow a map or a
// slice that contains itself until the stack runs out) and leaves only
// values of basic kinds, and Stringers, to fmt.
func inspectOther(v any, depth int) string {
	if _, ok := v.(fmt.Stringer); ok {
		return shorten(fmt.Sprint(v))
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return "null"
		}
		if rv.Len() == 0 {
			return "[]"
		}
		if depth > inspectMaxDepth {
			return "[Array]"
		}
		n := min(rv.Len(), inspectMaxItems)
		parts := make([]string, 0, n+1)
		for i := range n {
			parts = append(parts, inspectValue(rv.Index(i), depth+1))
		}
		parts = append(parts, moreItems(rv.Len()-n)...)
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		if rv.IsNil() {
			return "null"
		}
		if rv.Len() == 0 {
			return "{}"
		}
		if depth > inspectMaxDepth {
			return "[Object]"
		}
		parts := make([]string, 0, inspectMaxItems+1)
		it := rv.MapRange()
		for len(parts) < inspectMaxItems && it.Next() {
			key := it.Key()
			if key.Kind() == reflect.Interface && !key.IsNil() {
				key = key.Elem()
			}
			name := inspectValue(key, inspectMaxDepth+1)
			if key.Kind() == reflect.String {
				name = key.String()
			}
			parts = append(parts, shorten(name)+": "+inspectValue(it.Value(), depth+1))
		}
		sort.Strings(parts)
		parts = append(parts, moreItems(rv.Len()-len(parts))...)
		return "{ " + strings.Join(parts, ", ") + " }"
	case reflect.Pointer, reflect.Interface:
		for range maxDerefs {
			if rv.IsNil() {
				return "null"
			}
			if rv = rv.Elem(); rv.Kind() != reflect.Pointer && rv.Kind() != reflect.Interface {
				return inspectValue(rv, depth)
			}
		}
		return "[Circular]"
	case reflect.Struct:
		if depth > inspectMaxDepth {
			return "[Object]"
		}
		var parts []string
		for i := range rv.NumField() {
			f := rv.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if len(parts) == inspectMaxItems {
				parts = append(parts, "…")
				break
			}
			parts = append(parts, f.Name+": "+inspectValue(rv.Field(i), depth+1))
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return "[" + rv.Type().String() + "]"
	}
	return shorten(fmt.Sprint(v))
}

func inspectValue(rv reflect.Value, depth int) string {
	if !rv.IsValid() {
		return "null"
	}
	if !rv.CanInterface() {
		return "[" + rv.Type().String() + "]"
	}
	return inspectDepth(rv.Interface(), depth)
}

func shorten(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func moreItems(n int) []string {
	switch {
	case n == 1:
		return []string{"... 1 more item"}
	case n > 1:
		return []string{"... " + strconv.Itoa(n) + " more items"}
	}
	return nil
}

// firstKeys returns the n smallest keys of m in order, without sorting all
// of them: error messages show a few keys of objects that may hold
// thousands.
func firstKeys(m map[string]any, n int) []string {
	keys := make([]string, 0, n+1)
	for k := range m {
		i := sort.SearchStrings(keys, k)
		if i == n {
			continue
		}
		keys = append(keys, "")
		copy(keys[i+1:], keys[i:])
		keys[i] = k
		if len(keys) > n {
			keys = keys[:n]
		}
	}
	return keys
}

// maxDerefs bounds the pointers and interfaces Inspect follows: a pointer
// that leads back to itself prints as [Circular].
const maxDerefs = 64
