package graphqlhttp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// referenceDecode reads a body with encoding/json, the behaviour decodeBody
// must match whenever the body is a valid JSON object.
func referenceDecode(body []byte) (params, bool) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return params{}, false
	}
	var p params
	if !extensionsAreObjects(body) {
		return p, false
	}
	q, ok := raw["query"]
	if !ok || string(q) == "null" {
		return p, false
	}
	if json.Unmarshal(q, &p.query) != nil {
		return p, false
	}
	if op, ok := raw["operationName"]; ok && string(op) != "null" {
		if json.Unmarshal(op, &p.operationName) != nil {
			return p, false
		}
	}
	if v, ok := raw["variables"]; ok && string(v) != "null" {
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		if dec.Decode(&p.variables) != nil || p.variables == nil {
			return p, false
		}
	}
	return p, true
}

func FuzzDecodeBodyMatchesEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{"query":"{ a }"}`,
		`{"query":"q","variables":{"n":20,"f":1.5e3,"s":"x\u00e9\n","l":[1,[2,{}]],"b":true,"z":null},"operationName":"Op"}`,
		`{"query":"a","query":"b"}`,
		`{"variables":{"a":{"b":{"c":[]}}},"query":"\"quoted\" \\ \ud83d\ude00"}`,
		` { "query" : "x" , "extensions" : {"persistedQuery":{"version":1}} } `,
		`{"query":"x","extensions":"{}"}`,
		`{"query":"x","extensions":[{}]}`,
		`{"extensions":null,"query":"x"}`,
		`{"query":"x","operationName":null,"variables":null}`,
		`{"query":"x","variables":{"k":"\ud800"}}`,
		"{\"query\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, fail := decodeBody(body)
		want, ok := referenceDecode(body)
		if !json.Valid(body) || variablesDepth(body) > MaxVariablesNesting {
			if fail == nil {
				t.Fatalf("accepted %q", body)
			}
			return
		}
		if ok != (fail == nil) {
			t.Fatalf("decodeBody(%q): failure %v, encoding/json ok %v", body, fail, ok)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeBody(%q)\n got %#v\nwant %#v", body, got, want)
		}
	})
}

// variablesDepth is how deeply the deepest "variables" member of a JSON
// object body nests (0 when there is none, or none is an object): what
// decodeBody bounds, for every such member it reads.
func variablesDepth(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0
	}
	deepest := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return deepest
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return deepest
		}
		if key == "variables" && len(raw) > 0 && raw[0] == '{' {
			deepest = max(deepest, jsonDepth(raw, MaxVariablesNesting))
		}
	}
	return deepest
}

// extensionsAreObjects reports whether every "extensions" member of a JSON
// object body is an object or null.
func extensionsAreObjects(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return true
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return true
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return true
		}
		if key == "extensions" && raw[0] != '{' && string(raw) != "null" {
			return false
		}
	}
	return true
}

// unquoteCases are JSON string insides with every escape, surrogate pairs
// whole, broken and reversed, and invalid UTF-8.
var unquoteCases = []string{
	``, `plain`, `\"quoted\" \\ \/ \b\f\n\r\t`, `\u0041\u00e9\u20AC`, `\ud83d\ude00`, `\uD83D\uDE00`,
	`\ud83d`, `\ud83d\u0041`, `\ude00\ud83d`, `\ud83d\ud83d\ude00`, `\udc00x`, `\ud83d\\u0041`, `\ud83dx\ude00`,
	"h\xc3\xa9llo", "\xff", "a\xed\xa0\x80b", "\xe2\x82", "\u2028", `mixed é \u00e9 ` + "\xc3",
}

// TestUnquote compares unquote with encoding/json on every case.
func TestUnquote(t *testing.T) {
	for _, c := range unquoteCases {
		var want string
		if err := json.Unmarshal([]byte(`"`+c+`"`), &want); err != nil {
			t.Fatalf("case %q is not a JSON string: %v", c, err)
		}
		if got := unquote([]byte(c)); got != want {
			t.Errorf("unquote(%q) = %q, want %q", c, got, want)
		}
	}
}

func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c string) {
		quoted := []byte(`"` + c + `"`)
		if !json.Valid(quoted) {
			return
		}
		var want string
		if err := json.Unmarshal(quoted, &want); err != nil {
			t.Fatalf("json.Valid accepted %q, which does not decode: %v", quoted, err)
		}
		if got := unquote([]byte(c)); got != want {
			t.Fatalf("unquote(%q) = %q, want %q", c, got, want)
		}
	})
}
func TestResponseType(t *testing.T) {
	const grj = "application/graphql-response+json"
	tests := []struct{ accept, want string }{
		{"", contentJSON},
		{"application/json", contentJSON},
		{grj, grj},
		{grj + "; charset=utf-8", grj},
		{grj + ";q=0", contentJSON},
		{"application/json, " + grj, grj},
		{grj + ";q=0.5, application/json;q=0.5", grj},
		{"application/json;q=0.9, " + grj + ";q=0.8", contentJSON},
		{"*/*", contentJSON},
		{"text/html, application/xhtml+xml", contentJSON},
	}
	for _, tt := range tests {
		if got := responseType(tt.accept); got != tt.want {
			t.Errorf("responseType(%q) = %q, want %q", tt.accept, got, tt.want)
		}
	}
}
