package access

import (
	"reflect"
	"strings"
)

// TagName returns the schema name that the tags of struct field f give
// it: the name of its `graphql` tag, else of its `json` tag, so that a
// DTO whose json tags serve a REST API (snake_case, say) names its fields
// for the schema with graphql tags and keeps both. hidden reports a field
// left out of the schema: `graphql:"-"`, or `json:"-"` without a graphql
// name. name is "" when neither tag names the field (the Go name then
// decides); tagged reports a tag with a name or options, as encoding/json
// reads it, for embedded structs (flattened unless tagged with a name).
func TagName(f reflect.StructField) (name string, hidden, tagged bool) {
	if tag, ok := f.Tag.Lookup("graphql"); ok {
		if tag == "-" {
			return "", true, true
		}
		if name, _, _ := strings.Cut(tag, ","); name != "" {
			return name, false, true
		}
	}
	tag, ok := f.Tag.Lookup("json")
	if tag == "-" {
		return "", true, true
	}
	name, _, _ = strings.Cut(tag, ",")
	return name, false, ok
}
