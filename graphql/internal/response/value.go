package response

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/gqlkit/gqlkit/internal/jsonnum"
)

// marshal is json.Marshal without escaping HTML characters, as the kit
// writes every JSON answer: internal/httpjson.Marshal's twin, which the
// engine cannot call (httpjson imports net/http, which the engine must not).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxJSONDepth bounds how deeply a custom scalar's serialised value may
// nest, and maxJSONParts its parts: a map that contains itself, or whose
// maps share sub-maps (2^depth parts to write), is an error, not an endless
// walk.
const (
	maxJSONDepth = 256
	maxJSONParts = 1 << 20
)

// AppendValue writes what a custom scalar's Serialize returned.
func AppendValue(dst []byte, v any) ([]byte, error) {
	parts := 0
	return appendJSONPart(dst, v, 0, &parts)
}

func appendJSONPart(dst []byte, v any, depth int, parts *int) ([]byte, error) {
	if depth > maxJSONDepth {
		return dst, fmt.Errorf("the value is nested more than %d levels deep", maxJSONDepth)
	}
	if *parts++; *parts > maxJSONParts {
		return dst, fmt.Errorf("the value has more than %d parts", maxJSONParts)
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case json.Number:
		if !jsonnum.IsNumber(string(x)) {
			return dst, fmt.Errorf("json.Number %s is not a JSON number", Inspect(string(x)))
		}
		return append(dst, x...), nil
	case json.Marshaler:
		b, err := x.MarshalJSON()
		if err != nil {
			return dst, err
		}
		// Written into the response as it is, so it must be JSON; it is
		// compacted, as encoding/json does.
		start := len(dst)
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return dst[:start], fmt.Errorf("MarshalJSON of %T returned invalid JSON: %w", x, err)
		}
		return append(dst, buf.Bytes()...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSONPart(dst, e, depth+1, parts); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendJSONPart(dst, x[k], depth+1, parts); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	if f, ok := NumberOf(v); ok {
		if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
			return dst, fmt.Errorf("cannot represent %v in JSON", v)
		}
		if s, ok := ExactInt(v); ok {
			return append(dst, s...), nil
		}
		return AppendFloat(dst, f), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...), nil
}

// sortedKeys returns the keys of m in order: objects are written with
// their keys sorted, as encoding/json writes a map.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
