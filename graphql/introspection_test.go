package graphql_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// librarySchema uses every feature that introspection and SDL show:
// descriptions (one line, several lines, on arguments), deprecations (with
// and without a reason), defaults of every kind, a custom scalar with a
// SpecifiedByURL, an enum, an input object, a Mutation root.
func librarySchema(t *testing.T) *graphql.Schema {
	t.Helper()
	date := &graphql.Scalar{
		Name:           "Date",
		Description:    "A calendar date.",
		SpecifiedByURL: "https://example.com/date",
		Serialize:      dateScalar.Serialize,
		ParseValue:     dateScalar.ParseValue,
	}
	genre := &graphql.Enum{Name: "Genre", Description: "What a book is about.", Values: []graphql.EnumValue{
		{Name: "FICTION", Description: "Made up."},
		{Name: "HISTORY"},
		{Name: "POETRY", Description: "Verse.", DeprecationReason: "Merged into FICTION."},
		{Name: "DRAMA", DeprecationReason: "No longer supported"},
	}}
	filter := &graphql.InputObject{Name: "BookFilter", Description: "Narrows a book list.", Fields: []graphql.InputField{
		{Name: "genre", Type: genre, Default: "FICTION"},
		{Name: "since", Type: date, Description: "Published on or after."},
		{Name: "title", Type: graphql.String, DeprecationReason: "Use search."},
		{Name: "limit", Type: graphql.NewNonNull(graphql.Int), Default: 20},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String)), Default: []string{"new"}},
	}}
	var book *graphql.Object
	book = &graphql.Object{Name: "Book", Description: "A book.\n\nWith a second paragraph.", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.NewNonNull(graphql.String), Description: "The title, as printed."},
			{Name: "genre", Type: genre},
			{Name: "published", Type: date},
			{Name: "isbn", Type: graphql.String, DeprecationReason: `Use "ids".`},
			{Name: "similar", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(book))),
				Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 3}}},
		}
	})}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(book))), Description: "Every book, filtered.",
			Args: []graphql.Argument{
				{Name: "filter", Type: filter, Default: map[string]any{"limit": 5}, Description: "Which books."},
				{Name: "after", Type: graphql.ID},
			},
			Resolve: constant([]map[string]any{})},
		{Name: "book", Type: book, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}},
		{Name: "search", Type: graphql.NewList(book), Args: []graphql.Argument{
			{Name: "q", Type: graphql.String, Default: "say \"hi\"\n"},
			{Name: "exact", Type: graphql.Boolean, Default: false},
			{Name: "score", Type: graphql.Float, Default: 0.5},
			{Name: "old", Type: graphql.String, DeprecationReason: "Use q."},
		}},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "addBook", Type: graphql.NewNonNull(book), Args: []graphql.Argument{
			{Name: "title", Type: graphql.NewNonNull(graphql.String)},
			{Name: "genre", Type: genre, Default: "HISTORY"},
			{Name: "tags", Type: graphql.NewList(graphql.String), Default: graphql.Null},
		}, Resolve: constant(map[string]any{"id": "b1", "title": "New"})},
	}}
	return newSchema(t, graphql.SchemaConfig{Query: query, Mutation: mutation, Description: "The library."})
}

func TestIntrospection(t *testing.T) {
	s := librarySchema(t)
	tests := []struct {
		name  string
		query string
		want  string
	}{
		{name: "roots", query: `{ __schema { description queryType { name } mutationType { name kind } subscriptionType { name } } }`,
			want: `{"data":{"__schema":{"description":"The library.","queryType":{"name":"Query"},"mutationType":{"name":"Mutation","kind":"OBJECT"},"subscriptionType":null}}}`},
		{name: "types in a stable order", query: `{ __schema { types { name kind } } }`,
			want: `{"data":{"__schema":{"types":[` +
				`{"name":"Query","kind":"OBJECT"},{"name":"Book","kind":"OBJECT"},{"name":"ID","kind":"SCALAR"},{"name":"String","kind":"SCALAR"},` +
				`{"name":"Genre","kind":"ENUM"},{"name":"Date","kind":"SCALAR"},{"name":"Int","kind":"SCALAR"},{"name":"BookFilter","kind":"INPUT_OBJECT"},` +
				`{"name":"Boolean","kind":"SCALAR"},{"name":"Float","kind":"SCALAR"},{"name":"Mutation","kind":"OBJECT"},` +
				`{"name":"__Schema","kind":"OBJECT"},{"name":"__Type","kind":"OBJECT"},{"name":"__TypeKind","kind":"ENUM"},{"name":"__Field","kind":"OBJECT"},` +
				`{"name":"__InputValue","kind":"OBJECT"},{"name":"__EnumValue","kind":"OBJECT"},{"name":"__Directive","kind":"OBJECT"},{"name":"__DirectiveLocation","kind":"ENUM"}]}}}`},
		{name: "directives", query: `{ __schema { directives { name isRepeatable locations args { name type { kind name ofType { name } } defaultValue } } } }`,
			want: `{"data":{"__schema":{"directives":[` +
				`{"name":"include","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"],"args":[{"name":"if","type":{"kind":"NON_NULL","name":null,"ofType":{"name":"Boolean"}},"defaultValue":null}]},` +
				`{"name":"skip","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"],"args":[{"name":"if","type":{"kind":"NON_NULL","name":null,"ofType":{"name":"Boolean"}},"defaultValue":null}]},` +
				`{"name":"deprecated","isRepeatable":false,"locations":["FIELD_DEFINITION","ARGUMENT_DEFINITION","INPUT_FIELD_DEFINITION","ENUM_VALUE","DIRECTIVE_DEFINITION"],"args":[{"name":"reason","type":{"kind":"SCALAR","name":"String","ofType":null},"defaultValue":"\"No longer supported\""}]},` +
				`{"name":"specifiedBy","isRepeatable":false,"locations":["SCALAR"],"args":[{"name":"url","type":{"kind":"NON_NULL","name":null,"ofType":{"name":"String"}},"defaultValue":null}]},` +
				`{"name":"oneOf","isRepeatable":false,"locations":["INPUT_OBJECT"],"args":[]}]}}}`},
		{name: "object", query: `{ __type(name: "Book") { kind name description specifiedByURL interfaces { name } possibleTypes { name } enumValues { name } inputFields { name } ofType { name } isOneOf fields { name description isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"kind":"OBJECT","name":"Book","description":"A book.\n\nWith a second paragraph.","specifiedByURL":null,"interfaces":[],"possibleTypes":null,"enumValues":null,"inputFields":null,"ofType":null,"isOneOf":null,"fields":[` +
				`{"name":"id","description":null,"isDeprecated":false,"deprecationReason":null},` +
				`{"name":"title","description":"The title, as printed.","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"genre","description":null,"isDeprecated":false,"deprecationReason":null},` +
				`{"name":"published","description":null,"isDeprecated":false,"deprecationReason":null},` +
				`{"name":"similar","description":null,"isDeprecated":false,"deprecationReason":null}]}}}`},
		{name: "deprecated fields included", query: `{ __type(name: "Book") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"fields":[` +
				`{"name":"id","isDeprecated":false,"deprecationReason":null},{"name":"title","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"genre","isDeprecated":false,"deprecationReason":null},{"name":"published","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"isbn","isDeprecated":true,"deprecationReason":"Use \"ids\"."},{"name":"similar","isDeprecated":false,"deprecationReason":null}]}}}`},
		{name: "deprecated fields excluded explicitly", query: `{ __type(name: "Book") { fields(includeDeprecated: false) { name } } }`,
			want: `{"data":{"__type":{"fields":[{"name":"id"},{"name":"title"},{"name":"genre"},{"name":"published"},{"name":"similar"}]}}}`},
		{name: "enum", query: `{ __type(name: "Genre") { kind description fields { name } enumValues { name description isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"kind":"ENUM","description":"What a book is about.","fields":null,"enumValues":[` +
				`{"name":"FICTION","description":"Made up.","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"HISTORY","description":null,"isDeprecated":false,"deprecationReason":null}]}}}`},
		{name: "deprecated enum values included", query: `{ __type(name: "Genre") { enumValues(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"enumValues":[` +
				`{"name":"FICTION","isDeprecated":false,"deprecationReason":null},{"name":"HISTORY","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"POETRY","isDeprecated":true,"deprecationReason":"Merged into FICTION."},{"name":"DRAMA","isDeprecated":true,"deprecationReason":"No longer supported"}]}}}`},
		{name: "input object", query: `{ __type(name: "BookFilter") { kind isOneOf fields { name } inputFields { name description type { name kind } defaultValue } } }`,
			want: `{"data":{"__type":{"kind":"INPUT_OBJECT","isOneOf":false,"fields":null,"inputFields":[` +
				`{"name":"genre","description":null,"type":{"name":"Genre","kind":"ENUM"},"defaultValue":"FICTION"},` +
				`{"name":"since","description":"Published on or after.","type":{"name":"Date","kind":"SCALAR"},"defaultValue":null},` +
				`{"name":"limit","description":null,"type":{"name":null,"kind":"NON_NULL"},"defaultValue":"20"},` +
				`{"name":"tags","description":null,"type":{"name":null,"kind":"LIST"},"defaultValue":"[\"new\"]"}]}}}`},
		{name: "deprecated input fields included", query: `{ __type(name: "BookFilter") { inputFields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"inputFields":[` +
				`{"name":"genre","isDeprecated":false,"deprecationReason":null},{"name":"since","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"title","isDeprecated":true,"deprecationReason":"Use search."},{"name":"limit","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"tags","isDeprecated":false,"deprecationReason":null}]}}}`},
		{name: "custom scalar", query: `{ __type(name: "Date") { kind name description specifiedByURL fields { name } interfaces { name } inputFields { name } isOneOf } }`,
			want: `{"data":{"__type":{"kind":"SCALAR","name":"Date","description":"A calendar date.","specifiedByURL":"https://example.com/date","fields":null,"interfaces":null,"inputFields":null,"isOneOf":null}}}`},
		{name: "built-in scalar", query: `{ __type(name: "Int") { kind name specifiedByURL } }`,
			want: `{"data":{"__type":{"kind":"SCALAR","name":"Int","specifiedByURL":null}}}`},
		{name: "unknown type", query: `{ __type(name: "Nope") { name } }`,
			want: `{"data":{"__type":null}}`},
		{name: "wrapped types", query: `{ __type(name: "Query") { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { name } } } } } } } }`,
			want: `{"data":{"__type":{"fields":[` +
				`{"name":"books","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"OBJECT","name":"Book","ofType":null}}}}},` +
				`{"name":"book","type":{"kind":"OBJECT","name":"Book","ofType":null}},` +
				`{"name":"search","type":{"kind":"LIST","name":null,"ofType":{"kind":"OBJECT","name":"Book","ofType":null}}}]}}}`},
		{name: "arguments and defaultValue", query: `{ __type(name: "Query") { fields { name args { name description defaultValue } } } }`,
			want: `{"data":{"__type":{"fields":[` +
				`{"name":"books","args":[{"name":"filter","description":"Which books.","defaultValue":"{genre: FICTION, limit: 5, tags: [\"new\"]}"},{"name":"after","description":null,"defaultValue":null}]},` +
				`{"name":"book","args":[{"name":"id","description":null,"defaultValue":null}]},` +
				`{"name":"search","args":[{"name":"q","description":null,"defaultValue":"\"say \\\"hi\\\"\\n\""},{"name":"exact","description":null,"defaultValue":"false"},{"name":"score","description":null,"defaultValue":"0.5"}]}]}}}`},
		{name: "deprecated arguments included", query: `{ __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated deprecationReason } } } }`,
			want: `{"data":{"__type":{"fields":[` +
				`{"name":"books","args":[{"name":"filter","isDeprecated":false,"deprecationReason":null},{"name":"after","isDeprecated":false,"deprecationReason":null}]},` +
				`{"name":"book","args":[{"name":"id","isDeprecated":false,"deprecationReason":null}]},` +
				`{"name":"search","args":[{"name":"q","isDeprecated":false,"deprecationReason":null},{"name":"exact","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"score","isDeprecated":false,"deprecationReason":null},{"name":"old","isDeprecated":true,"deprecationReason":"Use q."}]}]}}}`},
		{name: "mutation defaults", query: `{ __type(name: "Mutation") { fields { args { name defaultValue } } } }`,
			want: `{"data":{"__type":{"fields":[{"args":[{"name":"title","defaultValue":null},{"name":"genre","defaultValue":"HISTORY"},{"name":"tags","defaultValue":"null"}]}]}}}`},
		{name: "__typename", query: `{ __typename books { __typename } __schema { __typename queryType { __typename } } }`,
			want: `{"data":{"__typename":"Query","books":[],"__schema":{"__typename":"__Schema","queryType":{"__typename":"__Type"}}}}`},
		{name: "__typename of a mutation", query: `mutation { __typename addBook(title: "T") { __typename id } }`,
			want: `{"data":{"__typename":"Mutation","addBook":{"__typename":"Book","id":"b1"}}}`},
		{name: "introspection types describe themselves", query: `{ __type(name: "__TypeKind") { kind enumValues { name } } }`,
			want: `{"data":{"__type":{"kind":"ENUM","enumValues":[{"name":"SCALAR"},{"name":"OBJECT"},{"name":"INTERFACE"},{"name":"UNION"},{"name":"ENUM"},{"name":"INPUT_OBJECT"},{"name":"LIST"},{"name":"NON_NULL"}]}}}`},
		{name: "__type name from a variable", query: `query($n: String!) { __type(name: $n) { name } }`,
			want: `{"data":{"__type":{"name":"Genre"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", `{"n": "Genre"}`); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestDisableIntrospection(t *testing.T) {
	s := librarySchema(t)
	tests := []struct {
		name    string
		query   string
		opts    graphql.ValidateOptions
		wantErr string // the errors' messages, joined by "|"
	}{
		{name: "allowed", query: `{ __schema { queryType { name } } }`},
		{name: "__schema refused", query: `{ __schema { queryType { name } } }`, opts: graphql.ValidateOptions{DisableIntrospection: true},
			wantErr: "GraphQL introspection is not allowed, but the query contained __schema."},
		{name: "__type refused", query: `{ t: __type(name: "Book") { name } }`, opts: graphql.ValidateOptions{DisableIntrospection: true},
			wantErr: "GraphQL introspection is not allowed, but the query contained __type."},
		{name: "__typename allowed", query: `{ __typename books { __typename } }`, opts: graphql.ValidateOptions{DisableIntrospection: true}},
		{name: "suggestions", query: `{ book { titel } }`,
			wantErr: `Cannot query field "titel" on type "Book". Did you mean "title"?|Field "book" argument "id" of type "ID!" is required, but it was not provided.`},
		{name: "no suggestions", query: `{ book { titel } }`, opts: graphql.ValidateOptions{DisableIntrospection: true},
			wantErr: `Cannot query field "titel" on type "Book".|Field "book" argument "id" of type "ID!" is required, but it was not provided.`},
		{name: "no enum suggestions", query: `{ search(q: FICTON) { id } }`, opts: graphql.ValidateOptions{DisableIntrospection: true},
			wantErr: `String cannot represent a non string value: FICTON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := graphql.ParseQuery(tt.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			errs := validateDoc(s, doc, tt.opts)
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Message)
			}
			if got := strings.Join(msgs, "|"); got != tt.wantErr {
				t.Errorf("errors:\n got %s\nwant %s", got, tt.wantErr)
			}
		})
	}
}

// introspectionQuery is graphql-js's getIntrospectionQuery with every
// option on (descriptions, specifiedByURL, directive isRepeatable, schema
// description, input value deprecation, oneOf).
const introspectionQuery = `
query IntrospectionQuery {
  __schema {
    description
    queryType { name kind }
    mutationType { name kind }
    subscriptionType { name kind }
    types { ...FullType }
    directives {
      name
      description
      isRepeatable
      locations
      args(includeDeprecated: true) { ...InputValue }
    }
  }
}
fragment FullType on __Type {
  kind
  name
  description
  specifiedByURL
  isOneOf
  fields(includeDeprecated: true) {
    name
    description
    args(includeDeprecated: true) { ...InputValue }
    type { ...TypeRef }
    isDeprecated
    deprecationReason
  }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue {
  name
  description
  type { ...TypeRef }
  defaultValue
  isDeprecated
  deprecationReason
}
fragment TypeRef on __Type {
  kind
  name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }
}`

func TestStandardIntrospectionQuery(t *testing.T) {
	s := librarySchema(t)
	res := s.Do(context.Background(), graphql.Request{Query: introspectionQuery, OperationName: "IntrospectionQuery", Variables: nil, Present: graphql.Unmasked})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	var out struct {
		Schema struct {
			QueryType struct{ Name string }
			Types     []struct {
				Kind, Name string
				Fields     []struct{ Name string }
			}
			Directives []struct{ Name string }
		} `json:"__schema"`
	}
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, nt := range s.Types() {
		names = append(names, nt.TypeName())
	}
	var got []string
	for _, typ := range out.Schema.Types {
		got = append(got, typ.Name)
		if typ.Name == "Query" && len(typ.Fields) != 3 {
			t.Errorf("Query has %d fields, want 3 (no __schema or __type)", len(typ.Fields))
		}
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("types:\n got %v\nwant %v", got, names)
	}
	if out.Schema.QueryType.Name != "Query" || len(out.Schema.Directives) != 5 {
		t.Errorf("queryType %q, %d directives; want Query, 5", out.Schema.QueryType.Name, len(out.Schema.Directives))
	}
}
