package articles

import (
	"bytes"
	"encoding/json"

	"github.com/gqlkit/gqlkit/validate"
)

// MaxTitleLength is the longest title, in characters (Unicode code points,
// as PHP's mb_strlen counts them), after trimming.
const MaxTitleLength = 200

// TitleRules returns the rules of an article's title (a new slice each
// call): Laravel's 'required|string|max:200', counting characters as
// [MaxTitleLength] says, and no NUL character, which PostgreSQL cannot
// store. [BodyRules] and [PublishedRules] hold the other fields' rules.
//
// They are declared once, for every API that writes articles: the REST
// handler runs them on the members of a create request, and a GraphQL
// resolver may run them on its arguments, to refuse the same input with
// the same messages:
//
//	var problems validate.Failures
//	problems.CheckAs("input.title", "title", args["title"], articles.TitleRules()...)
//	problems.CheckAs("input.body", "body", args["body"], articles.BodyRules()...)
//	if len(problems) > 0 {
//		return nil, errcode.ValidationFailed(problems.Summary(), problems.Map())
//	}
//
// The rules do not trim: the REST handler trims strings first (and takes
// an empty string for null), as Laravel's TrimStrings and
// ConvertEmptyStringsToNull middlewares do; another API that trims them
// the same way stores what REST stores.
func TitleRules() []validate.Rule {
	return []validate.Rule{validate.Required(), validate.String(), validate.Max(MaxTitleLength), validate.NoNullCharacters()}
}

// BodyRules returns the rules of an article's body (a new slice each
// call): Laravel's 'required|string', and no NUL character. See
// [TitleRules].
func BodyRules() []validate.Rule {
	return []validate.Rule{validate.Required(), validate.String(), validate.NoNullCharacters()}
}

// PublishedRules returns the rules of an article's published flag (a new
// slice each call): Laravel's 'boolean', which takes true, false, 1, 0,
// "1" and "0", and refuses null. The field is optional (false when
// absent). See [TitleRules].
func PublishedRules() []validate.Rule {
	return []validate.Rule{validate.Boolean()}
}

// createInput is a validated create request.
type createInput struct {
	title     string
	body      string
	published bool
}

// decodeCreate validates the fields of a create request with
// [TitleRules], [BodyRules] and [PublishedRules], as a Laravel controller
// does behind the TrimStrings and ConvertEmptyStringsToNull middlewares
// (see member). Other fields are ignored.
func decodeCreate(fields map[string]json.RawMessage) (createInput, validate.Failures) {
	title, body, published := member(fields, "title"), member(fields, "body"), member(fields, "published")
	var problems validate.Failures
	problems.Check("title", title, TitleRules()...)
	problems.Check("body", body, BodyRules()...)
	problems.Check("published", published, PublishedRules()...)
	if len(problems) > 0 {
		return createInput{}, problems
	}
	var in createInput
	in.title, _ = title.(string)
	in.body, _ = body.(string)
	in.published, _ = laravelBoolean(published) // false when absent
	return in, nil
}

// member returns the value of the member name as a Laravel controller
// sees it: [validate.Missing] when there is no such member; otherwise the
// JSON decoded, numbers as json.Number, arrays as []any and objects as
// map[string]any; a string trimmed (TrimStrings), and nil when that
// leaves it empty (ConvertEmptyStringsToNull). Strings inside arrays and
// objects are left as they are: no rule of an article reads them.
func member(fields map[string]json.RawMessage, name string) any {
	raw, ok := fields[name]
	if !ok {
		return validate.Missing
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil // cannot happen: httpjson.ReadObject checked the JSON
	}
	if s, ok := v.(string); ok {
		if s = validate.Trim(s); s == "" { // TrimStrings
			return nil
		}
		return s
	}
	return v
}

// laravelBoolean turns a value that passed Laravel's "boolean" rule
// ([PublishedRules]) into a bool: true, 1 and "1" are true; false, 0 and
// "0" false. Any other value is not a boolean (ok false).
func laravelBoolean(v any) (value, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case json.Number:
		return v == "1", v == "1" || v == "0"
	case string:
		return v == "1", v == "1" || v == "0"
	}
	return false, false
}
