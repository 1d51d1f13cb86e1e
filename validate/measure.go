package validate

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// kind is how the rules see a value.
type kind uint8

const (
	kindOther kind = iota
	kindMissing
	kindNull
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindList
	kindMap
)

// value is a value seen once by every rule of a field.
type value struct {
	v    any
	kind kind
	// jsonNumber: v is a json.Number, of kind int, uint or float (or other
	// when its text is no number); str holds its text.
	jsonNumber bool
	str        string  // kindString
	i          int64   // kindInt
	u          uint64  // kindUint
	f          float64 // kindFloat
	n          int     // the items of kindList and kindMap
}

// see classifies x: a type switch on the common types first, reflection
// only for the others (named types such as type Genre string).
func see(x any) value {
	v := value{v: x}
	switch x := x.(type) {
	case nil:
		v.kind = kindNull
	case missingValue:
		v.kind = kindMissing
	case string:
		v.kind, v.str = kindString, x
	case bool:
		v.kind = kindBool
	case int:
		v.kind, v.i = kindInt, int64(x)
	case int64:
		v.kind, v.i = kindInt, x
	case int32:
		v.kind, v.i = kindInt, int64(x)
	case float64:
		v.kind, v.f = kindFloat, x
	case json.Number:
		v.jsonNumber, v.str = true, string(x)
		v.number(string(x))
	case []any:
		v.kind, v.n = kindList, len(x)
	case map[string]any:
		v.kind, v.n = kindMap, len(x)
	case []string:
		v.kind, v.n = kindList, len(x)
	default:
		v.reflect(reflect.ValueOf(x))
	}
	return v
}

// number sets v to the number s is: an int64, else a uint64, else a
// float64 (±Inf beyond its range); a text that is no number leaves v of
// kind other.
func (v *value) number(s string) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		v.kind, v.i = kindInt, i
		return
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		v.kind, v.u = kindUint, u
		return
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		v.kind, v.f = kindFloat, f
	}
}

// reflect classifies a value of a type the fast switch does not know, by
// its kind.
func (v *value) reflect(rv reflect.Value) {
	switch rv.Kind() {
	case reflect.String:
		v.kind, v.str = kindString, rv.String()
	case reflect.Bool:
		v.kind = kindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.kind, v.i = kindInt, rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.kind, v.u = kindUint, rv.Uint()
	case reflect.Float32, reflect.Float64:
		v.kind, v.f = kindFloat, rv.Float()
	case reflect.Slice, reflect.Array:
		v.kind, v.n = kindList, rv.Len()
	case reflect.Map:
		v.kind, v.n = kindMap, rv.Len()
	case reflect.Pointer:
		if rv.IsNil() {
			v.kind = kindNull
		}
	}
}

// order is the result of comparing a size with a bound.
type order int8

const (
	less order = iota - 1
	same
	greater
	unordered // NaN
)

// measure is what a size counts, picking the message.
type measure uint8

const (
	noSize measure = iota
	characters
	numeric
	items
)

// pick returns the template for m.
func (m measure) pick(str, num, list string) string {
	switch m {
	case characters:
		return str
	case numeric:
		return num
	case items:
		return list
	}
	return ""
}

// compare compares v's size with n; a value without a size compares as
// same, with the measure noSize.
func (v *value) compare(n int) (order, measure) {
	switch v.kind {
	case kindString:
		return compareInt(int64(utf8.RuneCountInString(v.str)), n), characters
	case kindInt:
		return compareInt(v.i, n), numeric
	case kindUint:
		if n < 0 || v.u > math.MaxInt64 {
			return greater, numeric
		}
		return compareInt(int64(v.u), n), numeric
	case kindFloat:
		return compareFloat(v.f, n), numeric
	case kindList, kindMap:
		return compareInt(int64(v.n), n), items
	}
	return same, noSize
}

func compareInt(a int64, n int) order {
	switch b := int64(n); {
	case a < b:
		return less
	case a > b:
		return greater
	}
	return same
}

// compareFloat compares f with n exactly, although float64(n) may round.
func compareFloat(f float64, n int) order {
	switch nf := float64(n); {
	case f != f:
		return unordered
	case f < nf:
		return less
	case f > nf:
		return greater
	}
	// f == float64(n): f is integral, and n may have been rounded to it.
	if f >= 1<<63 {
		return greater
	}
	return compareInt(int64(f), n)
}
