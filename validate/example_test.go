package validate_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/gqlkit/gqlkit/validate"
)

// A REST handler checks the members of a JSON body, decoded with
// UseNumber, and answers 422 with Laravel's body.
func Example() {
	body := `{"title":"  ","body":7,"published":"yes","per_page":500}`
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil {
		fmt.Println(err)
		return
	}
	// member returns a member's value, Missing when the key is absent.
	member := func(name string) any {
		if v, ok := in[name]; ok {
			return v
		}
		return validate.Missing
	}

	var problems validate.Failures
	problems.Check("title", member("title"), validate.Required(), validate.String(), validate.Max(200))
	problems.Check("body", member("body"), validate.Required(), validate.String())
	problems.Check("published", member("published"), validate.Boolean())
	problems.Check("per_page", member("per_page"), validate.Between(1, 100))
	problems.Check("tags", member("tags"), validate.Each(validate.String())) // absent: passes

	out, _ := json.MarshalIndent(struct {
		Message string            `json:"message"`
		Errors  validate.Failures `json:"errors"`
	}{problems.Summary(), problems}, "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "message": "The title field is required. (and 3 more errors)",
	//   "errors": {
	//     "title": [
	//       "The title field is required."
	//     ],
	//     "body": [
	//       "The body field must be a string."
	//     ],
	//     "published": [
	//       "The published field must be true or false."
	//     ],
	//     "per_page": [
	//       "The per page field must be between 1 and 100."
	//     ]
	//   }
	// }
}

// The GraphQL engine checks the fields of an input object argument under
// their full path, with the field's own name in messages, and the items of
// a list under "<path>.<i>".
func Example_nested() {
	type Genre string // an enum value
	input := map[string]any{
		"title": "Dune",
		"genre": Genre("POETRY"),
		"tags":  []any{"sci-fi", "", "x\x00y"},
	}
	tag := regexp.MustCompile(`^[a-z-]+$`)

	var problems validate.Failures
	problems.CheckAs("input.title", "title", input["title"], validate.Required(), validate.Between(5, 100))
	problems.CheckAs("input.genre", "genre", input["genre"], validate.OneOf(Genre("NOVEL"), Genre("ESSAY")))
	problems.CheckAs("input.tags", "tags", input["tags"],
		validate.Max(5),
		validate.Each(validate.Required(), validate.Pattern(tag).WithMessage("Use lower-case words in :attribute."), validate.NoNullCharacters()))

	for _, p := range problems {
		fmt.Printf("%s: %q\n", p.Path, p.Messages)
	}
	// Output:
	// input.title: ["The title field must be between 5 and 100 characters."]
	// input.genre: ["The selected genre is invalid."]
	// input.tags.1: ["The tags.1 field is required."]
	// input.tags.2: ["Use lower-case words in tags.2." "The tags.2 field must not contain null characters."]
}

func ExampleFunc() {
	even := validate.Func(func(v any) string {
		if n, ok := v.(int); ok && n%2 == 0 {
			return ""
		}
		return "The :attribute field must be an even number."
	})
	var problems validate.Failures
	problems.Check("pageSize", 3, even)
	problems.Check("offset", nil, even) // nil: not called
	fmt.Println(problems.Summary())
	// Output:
	// The page size field must be an even number.
}

func ExampleAttribute() {
	for _, path := range []string{"title", "per_page", "createdAt", "input.tags.0"} {
		fmt.Printf("%s → %s\n", path, validate.Attribute(path))
	}
	// Output:
	// title → title
	// per_page → per page
	// createdAt → created at
	// input.tags.0 → input.tags.0
}

func ExampleFailures_Summary() {
	var problems validate.Failures
	fmt.Println(problems.Summary())
	problems.Add("title", "The title field is required.")
	problems.Add("body", "The body field is required.")
	problems.Add("title", "The title field must be a string.")
	fmt.Println(problems.Summary())
	fmt.Println(problems.Map()["title"])
	// Output:
	// The given data was invalid.
	// The title field is required. (and 2 more errors)
	// [The title field is required. The title field must be a string.]
}

// A schema shows the rules of a field to its readers in words.
func ExampleDescribe() {
	title := []validate.Rule{validate.Trimmed(validate.Required(), validate.Max(200))}
	tags := []validate.Rule{validate.Max(10), validate.Each(validate.Between(1, 20))}
	fmt.Println(validate.Describe(title, validate.Characters))
	fmt.Println(validate.Describe(tags, validate.Items, validate.Characters))
	// Output:
	// trimmed (required, at most 200 characters)
	// at most 10 items; each item: between 1 and 20 characters
}
