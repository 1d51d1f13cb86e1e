package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// allOptionsQuery and abstractAllOptionsQuery are the cases whose results
// feed the buildClientSchema checks of the two schemas.
const (
	allOptionsQuery         = "introspection/full-all-options"
	abstractAllOptionsQuery = "abstract-introspection/full-all-options"
)

// abstractSchemaName is the value of a case's "schema" that runs it on the
// abstract schema (abstract_schema_test.go); without one, a case runs on
// the library (schema_test.go).
const abstractSchemaName = "abstract"

// testCase is one corpus entry.
type testCase struct {
	Name          string         `json:"name"`
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
	// Schema names the schema the case runs on: "" for the library,
	// abstractSchemaName for the schema of interfaces and unions.
	Schema string `json:"schema"`
	// Deviation names an entry of DEVIATIONS.md: gqlkit is meant to differ
	// from graphql-js here, and Expect says how.
	Deviation string `json:"deviation"`
	// Expect replaces parts of graphql-js's outcome (valid, data, errors)
	// with what gqlkit is meant to produce. Only for deviations.
	Expect *outcomeOverride `json:"expect"`
}

// outcome is what one implementation did with one case.
type outcome struct {
	Name   string          `json:"name,omitempty"`
	Valid  bool            `json:"valid"`
	Data   json.RawMessage `json:"data"`
	Errors []errorShape    `json:"errors"`
}

type outcomeOverride struct {
	Valid  *bool           `json:"valid"`
	Data   json.RawMessage `json:"data"`
	Errors *[]errorShape   `json:"errors"`
}

// errorShape is the part of an error both implementations must agree on;
// Message is shown in failures only.
type errorShape struct {
	Message   string          `json:"message,omitempty"`
	Path      json.RawMessage `json:"path"`
	Locations json.RawMessage `json:"locations"`
}

type nodeReport struct {
	SDL         string    `json:"sdl"`
	AbstractSDL string    `json:"abstractSdl"`
	Cases       []outcome `json:"cases"`
}

func TestConformance(t *testing.T) {
	testenv.SkipIfShort(t, "conformance: the corpus through graphql-js under node")
	js := nodeReady(t)
	cases := loadCorpus(t, filepath.Join("testdata", "corpus"))
	deviations := readDeviationIDs(t)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var report nodeReport
	out := js.run(ctx, t, nil, "corpus", filepath.Join("testdata", "corpus"))
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("decoding node's report: %v", err)
	}
	byName := make(map[string]outcome, len(report.Cases))
	for _, o := range report.Cases {
		byName[o.Name] = o
	}

	lib, err := loadLibrary(filepath.Join("testdata", "data.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema, err := newSchema(lib)
	if err != nil {
		t.Fatalf("building the schema: %v", err)
	}
	// The abstract schema failing to build fails its cases only.
	abstract, abstractErr := newAbstractSchema()
	schemaOf := func(t *testing.T, c testCase) *graphql.Schema {
		t.Helper()
		if c.Schema != abstractSchemaName {
			return schema
		}
		if abstractErr != nil {
			t.Fatalf("building the abstract schema: %v", abstractErr)
		}
		return abstract
	}

	// With CONFORMANCE_DUMP=file, gqlkit's outcomes are written there (as
	// {"name": outcome}) to help write the expect of a new deviation.
	dump := map[string]outcome{}
	if path := os.Getenv("CONFORMANCE_DUMP"); path != "" {
		defer func() {
			if err := os.WriteFile(path, mustJSON(dump), 0o644); err != nil {
				t.Error(err)
			}
		}()
	}

	// run runs a subtest and counts it, unless -run filtered it out.
	var passed, failed int
	run := func(name string, f func(t *testing.T)) {
		ran := false
		ok := t.Run(name, func(t *testing.T) {
			ran = true
			f(t)
		})
		switch {
		case !ran:
		case ok:
			passed++
		default:
			failed++
		}
	}
	allOptions := map[string]testCase{}
	for _, c := range cases {
		if c.Name == allOptionsQuery || c.Name == abstractAllOptionsQuery {
			allOptions[c.Name] = c
		}
		run(c.Name, func(t *testing.T) {
			js, ok := byName[c.Name]
			if !ok {
				t.Fatalf("graphql-js reported nothing for %s", c.Name)
			}
			if c.Deviation != "" && !deviations[c.Deviation] {
				t.Errorf("deviation %q is not described in DEVIATIONS.md", c.Deviation)
			}
			res := schemaOf(t, c).Do(withState(ctx), graphql.Request{Query: c.Query, OperationName: c.OperationName, Variables: c.Variables, Present: graphql.Unmasked})
			got := gqlkitOutcome(res)
			dump[c.Name] = got
			want := js
			if c.Deviation != "" {
				want = c.Expect.apply(js)
				if diffOutcomes(got, js) == "" {
					t.Errorf("deviation %s is stale: gqlkit now agrees with graphql-js; remove it", c.Deviation)
				}
			}
			if d := diffOutcomes(got, want); d != "" {
				t.Errorf("%s\nquery: %s\nvariables: %s\ngqlkit errors: %s\ngraphql-js errors: %s",
					d, c.Query, mustJSON(c.Variables), messages(got.Errors), messages(js.Errors))
			}
		})
	}

	for _, sdl := range []struct {
		prefix, jsSDL, allOptions string
		schema                    string
	}{
		{"sdl/", report.SDL, allOptionsQuery, ""},
		{"sdl/abstract/", report.AbstractSDL, abstractAllOptionsQuery, abstractSchemaName},
	} {
		run(sdl.prefix+"schema.SDL", func(t *testing.T) {
			if got := schemaOf(t, testCase{Schema: sdl.schema}).SDL(); got != sdl.jsSDL {
				t.Errorf("schema.SDL() differs from graphql-js printSchema:\n%s", firstDifference(got, sdl.jsSDL))
			}
		})
		run(sdl.prefix+"buildClientSchema", func(t *testing.T) {
			c, ok := allOptions[sdl.allOptions]
			if !ok {
				t.Fatalf("the corpus has no case %s", sdl.allOptions)
			}
			checkClientSDL(ctx, t, js, schemaOf(t, c), c, sdl.jsSDL)
		})
	}

	line := fmt.Sprintf("conformance: %d passed, %d failed", passed, failed)
	t.Log(line)
	fmt.Println(line)
}

// checkClientSDL checks that graphql-js's buildClientSchema accepts
// gqlkit's answer to the introspection query of case c and that
// printSchema prints it as want, graphql-js's printSchema of its own
// schema.
func checkClientSDL(ctx context.Context, t *testing.T, js graphqlJS, schema *graphql.Schema, c testCase, want string) {
	t.Helper()
	res := schema.Do(withState(ctx), graphql.Request{Query: c.Query, OperationName: c.OperationName, Present: graphql.Unmasked})
	if res.Data == nil || len(res.Errors) > 0 {
		t.Fatalf("case %s failed: %v", c.Name, res.Errors)
	}
	in := append(append([]byte(`{"data":`), res.Data...), '}')
	if got := js.ClientSDL(ctx, t, in); got != want {
		t.Errorf("printSchema(buildClientSchema(gqlkit's introspection)) differs from graphql-js printSchema:\n%s",
			firstDifference(got, want))
	}
}

func loadCorpus(t *testing.T, dir string) []testCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var cases []testCase
	seen := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		dec.DisallowUnknownFields()
		var list []testCase
		if err := dec.Decode(&list); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range list {
			if c.Name == "" || seen[c.Name] {
				t.Fatalf("%s: case name %q is empty or repeated", f, c.Name)
			}
			seen[c.Name] = true
			if c.Schema != "" && c.Schema != abstractSchemaName {
				t.Fatalf("%s: case %s: unknown schema %q", f, c.Name, c.Schema)
			}
			if (c.Deviation == "") != (c.Expect == nil) {
				t.Fatalf("%s: case %s: deviation and expect go together", f, c.Name)
			}
		}
		cases = append(cases, list...)
	}
	if len(cases) < 200 {
		t.Fatalf("the corpus has %d cases, want at least 200", len(cases))
	}
	return cases
}

// readDeviationIDs returns the ids of DEVIATIONS.md, the "## D1: …" headings.
func readDeviationIDs(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("DEVIATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "## "); ok {
			if id, _, ok := strings.Cut(rest, ":"); ok {
				ids[id] = true
			}
		}
	}
	return ids
}

func gqlkitOutcome(res graphql.Result) outcome {
	o := outcome{Valid: res.Data != nil, Data: res.Data}
	for _, e := range res.Errors {
		o.Errors = append(o.Errors, gqlkitError(e))
	}
	return o
}

func gqlkitError(e *gqlerror.Error) errorShape {
	s := errorShape{Message: e.Message, Path: json.RawMessage("null"), Locations: json.RawMessage("null")}
	if len(e.Path) > 0 {
		s.Path = mustJSON(e.Path)
	}
	if len(e.Locations) > 0 {
		type location struct {
			Line   int `json:"line"`
			Column int `json:"column"`
		}
		locs := make([]location, len(e.Locations))
		for i, l := range e.Locations {
			locs[i] = location{Line: l.Line, Column: l.Column}
		}
		s.Locations = mustJSON(locs)
	}
	return s
}

func (o *outcomeOverride) apply(js outcome) outcome {
	if o.Valid != nil {
		js.Valid = *o.Valid
		if !js.Valid {
			js.Data = nil
		}
	}
	if o.Data != nil {
		js.Data = o.Data
	}
	if o.Errors != nil {
		js.Errors = *o.Errors
	}
	return js
}

// diffOutcomes compares validity, data (values and key order) and the
// paths and locations of the errors (as a sorted list: the order in which
// errors are reported is not specified). It returns "" when they agree.
func diffOutcomes(got, want outcome) string {
	var b strings.Builder
	if got.Valid != want.Valid {
		fmt.Fprintf(&b, "valid: gqlkit %v, graphql-js %v\n", got.Valid, want.Valid)
		return b.String()
	}
	if got.Valid {
		g, err1 := canonicalJSON(got.Data)
		w, err2 := canonicalJSON(want.Data)
		switch {
		case err1 != nil:
			fmt.Fprintf(&b, "gqlkit data is not JSON: %v: %s\n", err1, got.Data)
		case err2 != nil:
			fmt.Fprintf(&b, "graphql-js data is not JSON: %v\n", err2)
		case g != w:
			fmt.Fprintf(&b, "data differs:\n%s", firstDifference(g, w))
		}
	}
	g, w := errorKeys(got.Errors), errorKeys(want.Errors)
	if !slices.Equal(g, w) {
		fmt.Fprintf(&b, "error paths and locations differ:\n  gqlkit:     %s\n  graphql-js: %s\n",
			strings.Join(g, " "), strings.Join(w, " "))
	}
	return b.String()
}

// errorKeys returns the sorted "path@locations" keys of errs.
func errorKeys(errs []errorShape) []string {
	keys := make([]string, 0, len(errs))
	for _, e := range errs {
		p, err := canonicalJSON(e.Path)
		if err != nil {
			p = string(e.Path)
		}
		l, err := canonicalJSON(e.Locations)
		if err != nil {
			l = string(e.Locations)
		}
		keys = append(keys, p+"@"+l)
	}
	slices.Sort(keys)
	return keys
}

func messages(errs []errorShape) string {
	var ms []string
	for _, e := range errs {
		ms = append(ms, strconv.Quote(e.Message))
	}
	return "[" + strings.Join(ms, ", ") + "]"
}

// canonicalJSON re-encodes a JSON value keeping the order of object members,
// with one spelling for every string and number, so that graphql-js's and
// gqlkit's encodings of the same value compare equal byte for byte.
func canonicalJSON(raw []byte) (string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "null", nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	if err := canonicalValue(dec, &b); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("trailing data after the JSON value")
	}
	return b.String(), nil
}

func canonicalValue(dec *json.Decoder, b *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		end := json.Delim('}')
		if v == '[' {
			end = ']'
		}
		b.WriteRune(rune(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if v == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				b.Write(mustJSON(key))
				b.WriteByte(':')
			}
			if err := canonicalValue(dec, b); err != nil {
				return err
			}
		}
		if tok, err := dec.Token(); err != nil || tok != end {
			return fmt.Errorf("unbalanced JSON: %v %v", tok, err)
		}
		b.WriteRune(rune(end))
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			b.WriteString(strconv.FormatInt(n, 10))
		} else if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		} else {
			return err
		}
	default: // string, bool, nil
		b.Write(mustJSON(v))
	}
	return nil
}

// mustJSON encodes v without HTML escaping; v is always encodable here.
func mustJSON(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(strconv.Quote(err.Error()))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// firstDifference shows where got and want first differ, with context.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	const ctx = 160
	from := max(i-ctx, 0)
	cut := func(s string) string {
		end := min(i+ctx, len(s))
		if from > len(s) {
			return ""
		}
		return s[from:end]
	}
	return fmt.Sprintf("  at byte %d\n  gqlkit:     …%s…\n  graphql-js: …%s…\n", i, cut(got), cut(want))
}
