package response

import (
	"encoding/json"
	"strconv"
)

// This file reads the numbers of Go and JSON values and writes them as
// JSON.stringify does.

// NumberOf reports the value of a Go or JSON number.
func NumberOf(v any) (f float64, ok bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float32:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	}
	return 0, false
}

// NumberString writes the number v, whose value is f, as JavaScript
// prints it: an integer of any Go type exactly, anything else as a float.
func NumberString(v any, f float64) string {
	if s, ok := ExactInt(v); ok {
		return s
	}
	return FormatFloat(f)
}

// ExactInt formats a value of any Go integer type exactly (a float64 would
// round integers beyond 2^53).
func ExactInt(v any) (string, bool) {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x), true
	case int8:
		return strconv.FormatInt(int64(x), 10), true
	case int16:
		return strconv.FormatInt(int64(x), 10), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint:
		return strconv.FormatUint(uint64(x), 10), true
	case uint8:
		return strconv.FormatUint(uint64(x), 10), true
	case uint16:
		return strconv.FormatUint(uint64(x), 10), true
	case uint32:
		return strconv.FormatUint(uint64(x), 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case uintptr:
		return strconv.FormatUint(uint64(x), 10), true
	}
	return "", false
}
