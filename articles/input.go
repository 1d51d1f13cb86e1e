package articles

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// MaxTitleLength is the longest title, in characters (Unicode code points,
// as PHP's mb_strlen counts them), after trimming.
const MaxTitleLength = 200

// createInput is a validated create request.
type createInput struct {
	title     string
	body      string
	published bool
}

// decodeCreate validates the fields of a create request the way a Laravel
// controller with the rules
//
//	'title'     => 'required|string|max:200',
//	'body'      => 'required|string',
//	'published' => 'boolean',
//
// does behind the TrimStrings and ConvertEmptyStringsToNull middlewares.
// Other fields are ignored.
func decodeCreate(fields map[string]json.RawMessage) (createInput, httpjson.Fields) {
	var in createInput
	var problems httpjson.Fields

	title, msg := requiredString(fields, "title")
	switch {
	case msg != "":
		problems.Add("title", msg)
	case utf8.RuneCountInString(title) > MaxTitleLength:
		problems.Add("title", "The title field must not be greater than "+strconv.Itoa(MaxTitleLength)+" characters.")
	default:
		in.title = title
	}

	if body, msg := requiredString(fields, "body"); msg != "" {
		problems.Add("body", msg)
	} else {
		in.body = body
	}

	if raw, ok := fields["published"]; ok {
		if b, ok := laravelBoolean(raw); ok {
			in.published = b
		} else {
			problems.Add("published", "The published field must be true or false.")
		}
	}
	return in, problems
}

// requiredString applies "required|string" to a field and returns the
// trimmed string, or the message of the first rule that fails.
func requiredString(fields map[string]json.RawMessage, name string) (string, string) {
	required := "The " + name + " field is required."
	raw, ok := fields[name]
	if !ok {
		return "", required
	}
	switch raw[0] {
	case 'n': // null
		return "", required
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", "The " + name + " field must be a string."
		}
		s = trim(s)
		if s == "" { // ConvertEmptyStringsToNull, then required
			return "", required
		}
		if strings.ContainsRune(s, 0) {
			return "", "The " + name + " field must not contain null characters."
		}
		return s, ""
	case '[', '{':
		// PHP decodes both to arrays; required fails on an empty one.
		if isEmptyContainer(raw) {
			return "", required
		}
	}
	return "", "The " + name + " field must be a string."
}

// isEmptyContainer reports whether raw is [] or {} (with any inner space).
func isEmptyContainer(raw json.RawMessage) bool {
	inner := bytes.TrimSpace(raw[1 : len(raw)-1])
	return len(inner) == 0
}

// laravelBoolean applies Laravel's "boolean" rule: true, false, 1, 0, "1"
// and "0" pass (strings after trimming); anything else, null included,
// fails.
func laravelBoolean(raw json.RawMessage) (value, ok bool) {
	switch string(raw) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	if raw[0] != '"' {
		return false, false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return false, false
	}
	switch trim(s) {
	case "1":
		return true, true
	case "0":
		return false, true
	}
	return false, false
}

// trim removes leading and trailing white space as Laravel's TrimStrings
// does: Unicode white space plus the zero-width no-break space (BOM), the
// zero-width space and the left-to-right mark.
func trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\uFEFF' || r == '\u200B' || r == '\u200E'
	})
}
