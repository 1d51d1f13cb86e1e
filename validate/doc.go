// Package validate checks input values against declarative rules and
// reports failures with Laravel's English messages, in Laravel's shape.
// The GraphQL engine runs it on coerced argument values and the articles
// REST handler on decoded JSON, so that both refuse the same input with
// the same words. It depends on the standard library only.
//
// # Overview
//
// A field's rules are a list of [Rule] values, declared once and shared:
//
//	titleRules := []validate.Rule{validate.Required(), validate.String(), validate.Max(200)}
//
// A [Failures] collects the messages of one validation, field by field, in
// the order the fields failed:
//
//	var problems validate.Failures
//	problems.Check("title", title, titleRules...)
//	problems.Check("published", published, validate.Boolean())
//	if len(problems) > 0 {
//		// 422: {"message": problems.Summary(), "errors": problems}
//	}
//
// [Failures.Check] names the field in messages by [Attribute] of its path
// ("per_page" reads "per page", "createdAt" "created at");
// [Failures.CheckAs] names it explicitly, as the GraphQL engine does for
// the path "input.title" and the attribute "title". [Each] checks every
// item of a list under the path "<path>.<i>". [Failures.Summary] is
// Laravel's one-line message, [Failures.Map] the messages by path (for
// errcode.ValidationFailed), and the JSON of Failures the "errors" member
// of Laravel's 422 answer, fields in order.
//
// # Values
//
// Rules take any value, and look at its kind rather than its type:
//
//   - strings: string and every named type of kind string (type Genre
//     string, for an enum value);
//   - numbers: every int, uint and float kind, and [encoding/json.Number]
//     (which counts as the number its text is, never as a string);
//   - booleans: bool and named types of kind bool;
//   - lists: every slice and array kind ([]any, []string, []Genre, [3]int);
//   - maps: every map kind (map[string]any for an input object);
//   - null: nil, and a nil pointer;
//   - anything else (a struct, a non-nil pointer, a func): a custom scalar
//     value, which only [OneOf], [Required] and [Func] say much about.
//
// The common types (string, bool, int, int32, int64, float64, json.Number,
// []any, []string, map[string]any) are recognised by a type switch;
// reflection classifies the rest. No rule panics on any value, whatever
// its type.
//
// Sizes, for [Min], [Max] and [Between], follow the kind: the characters
// of a string (Unicode code points, as PHP's mb_strlen counts them), the
// value of a number, the items of a list or map. A value without a size
// (a boolean, nil, a struct) passes them. (Laravel measures by the rules
// instead, a number as its digits unless the attribute also has a numeric
// rule; here the value's kind decides, as a GraphQL type does.)
//
// # Missing and null
//
// A field that was not given at all has the value [Missing]; one given as
// null has the value nil. The difference is Laravel's: only [Required],
// the implicit rule, sees Missing, and every other rule passes it, so that
// an optional field may be left out. A null is checked by the rules about
// a value's type: [String] and [Boolean] fail on it, as Laravel fails on a
// present null without "nullable" (a REST client that sends
// "published": null is told it must be true or false). The rules about a
// value's content ([Min], [Max], [Between], [OneOf], [Pattern], [Email],
// [NoNullCharacters]) pass it, because in GraphQL null is how a client
// clears an optional field, and the argument's type already says whether
// null is allowed; [Func] and [Each] are not called for Missing or nil.
// Add [Required] to refuse null.
//
// When Required fails, the field's remaining rules are not run; when
// String fails, its size rules ([Min], [Max], [Between]) are not (a number
// or a list sent for a string is not measured as one). Otherwise every
// failing rule of a field adds its message, in rule order: a title too
// long that also holds U+0000 gets both messages.
//
// [Trimmed] runs rules on a string as Laravel's TrimStrings and
// ConvertEmptyStringsToNull middlewares leave it ([Trim], and null when
// nothing is left), for an API without them: the example server's
// createPost judges a title as the articles REST API does.
//
// # Messages
//
// The templates are Laravel's (lang/en/validation.php), but for the last
// two, which are the kit's own:
//
//	Required          The :attribute field is required.
//	String            The :attribute field must be a string.
//	Boolean           The :attribute field must be true or false.
//	Min      string   The :attribute field must be at least :min characters.
//	         number   The :attribute field must be at least :min.
//	         list     The :attribute field must have at least :min items.
//	Max      string   The :attribute field must not be greater than :max characters.
//	         number   The :attribute field must not be greater than :max.
//	         list     The :attribute field must not have more than :max items.
//	Between  string   The :attribute field must be between :min and :max characters.
//	         number   The :attribute field must be between :min and :max.
//	         list     The :attribute field must have between :min and :max items.
//	OneOf             The selected :attribute is invalid.
//	Pattern           The :attribute field format is invalid.
//	Email             The :attribute field must be a valid email address.
//	NoNullCharacters  The :attribute field must not contain null characters.
//	Func (panicked)   The :attribute field is invalid.
//
// ":attribute" is replaced by the field's attribute, ":min" and ":max" by
// the rule's bounds in decimal ([strconv.Itoa]). [Rule.WithMessage] gives a
// rule a message of its own, with the same placeholders; a [Func] returns
// its messages itself.
//
// # Concurrency
//
// Rules are immutable and safe for concurrent use. A Failures is a plain
// slice: one goroutine at a time.
package validate
