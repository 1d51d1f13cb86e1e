package graphqlhttp_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/limits"
)

// nested returns "{ node { child { … { name } } } }" with depth fields:
// node, depth-2 times child, and name.
func nested(depth int) string {
	return "{ node { " + strings.Repeat("child { ", depth-2) + "name" + strings.Repeat(" }", depth-1) + " }"
}

// nestedData is the data of nested(children+2).
func nestedData(children int) string {
	return `{"data":{"node":` + strings.Repeat(`{"child":`, children) + `{"name":"n"}` + strings.Repeat("}", children) + "}}"
}

// aliases returns "{ a0:hello a1:hello … }" with n fields, and its data.
func aliases(n int) (query, data string) {
	var q, d strings.Builder
	q.WriteString("{")
	d.WriteString(`{"data":{`)
	for i := range n {
		fmt.Fprintf(&q, " a%d:hello", i)
		if i > 0 {
			d.WriteString(",")
		}
		fmt.Fprintf(&d, `"a%d":"world"`, i)
	}
	q.WriteString(" }")
	d.WriteString("}}")
	return q.String(), d.String()
}

// listTokens returns "{l(v:[[][]…]w:1)}", in which every byte is a token,
// with pairs empty lists: 12+2*pairs tokens. With extra, a last field makes
// the count odd: 13+2*pairs.
func listTokens(pairs int, extra bool) string {
	tail := ""
	if extra {
		tail = "hello"
	}
	return "{l(v:[" + strings.Repeat("[]", pairs) + "]w:1)" + tail + "}"
}

// deepList returns "{ json(v: [[…]]) }" with brackets nested lists deep:
// its nesting is lists+2.
func deepList(lists int) string {
	return "{ json(v: " + strings.Repeat("[", lists) + strings.Repeat("]", lists) + ") }"
}

// column returns the 1-based column of the n-th (1-based) occurrence of
// substr in a one-line query.
func column(t *testing.T, query, substr string, n int) int {
	t.Helper()
	at := -1
	for range n {
		i := strings.Index(query[at+1:], substr)
		if i < 0 {
			t.Fatalf("%q does not occur %d times", substr, n)
		}
		at += 1 + i
	}
	return at + 1
}

// TestLimitBoundaries sends, for each limit, a query exactly at the maximum,
// which runs, and one just over it, which is a 400 QUERY_LIMIT_EXCEEDED with
// extensions.limit {name, max, found}; under the default limits and under
// limits set in Config.
func TestLimitBoundaries(t *testing.T) {
	const (
		appGQL  = "application/graphql"
		appJSON = "application/json"
	)
	nodes500, data500 := aliases(500)
	nodes501, _ := aliases(501)
	nodes5, data5 := aliases(5)
	nodes250, data250 := aliases(250)
	nodes251, _ := aliases(251)
	nodes6, _ := aliases(6)
	tokens20001 := listTokens(9994, true)
	padded := func(n int) string { return "{ hello }" + strings.Repeat(" ", n-len("{ hello }")) }
	paddedJSON := func(n int) string { // a JSON body of n bytes
		b := jsonBody("{ hello }", "", "")
		return b[:len(b)-1] + strings.Repeat(" ", n-len(b)) + "}"
	}
	// depth 10 although fragments and inline fragments wrap 6 of its levels
	fragments10 := "query { node { ... on Node { child { ...C } } } }\n" +
		"fragment C on Node { child { ... { child { ...D } } } }\n" +
		"fragment D on Node { child { child { child { child { child { name } } } } } }"
	fragments11 := strings.Replace(fragments10, "{ name }", "{ child { name } }", 1)

	tests := []struct {
		name   string
		limits limits.Config
		req    request
		want   want
	}{
		// depth
		{name: "depth 10", req: request{contentType: appJSON, body: jsonBody(nested(10), "", "")},
			want: wantBody(200, nestedData(8))},
		{name: "depth 11", req: request{contentType: appJSON, body: jsonBody(nested(11), "", "")},
			want: wantBody(400, limitBody("query depth 11 exceeds the maximum of 10", "depth", 10, 11, 1, column(t, nested(11), "name", 1)))},
		{name: "depth 10 through fragments", req: request{contentType: appJSON, body: jsonBody(fragments10, "", "")},
			want: wantBody(200, nestedData(8))},
		{name: "depth 11 through fragments", req: request{contentType: appJSON, body: jsonBody(fragments11, "", "")},
			want: wantBody(400, limitBody("query depth 11 exceeds the maximum of 10", "depth", 10, 11, 1, column(t, fragments11, "...C", 1)+3))}, // at the spread of C
		{name: "depth 3 of 3", limits: limits.Config{MaxDepth: 3}, req: request{contentType: appGQL, body: nested(3)},
			want: wantBody(200, nestedData(1))},
		{name: "depth 4 of 3", limits: limits.Config{MaxDepth: 3}, req: request{contentType: appGQL, body: nested(4)},
			want: wantBody(400, limitBody("query depth 4 exceeds the maximum of 3", "depth", 3, 4, 1, column(t, nested(4), "name", 1)))},
		{name: "too deep and invalid", req: request{contentType: appJSON,
			body: jsonBody(strings.Replace(nested(11), "name", "nope ...Missing", 1), "", "")},
			want: wantBody(400, limitBody("query depth 11 exceeds the maximum of 10", "depth", 10, 11, 1, column(t, nested(11), "name", 1)))},

		// nodes
		{name: "500 nodes", req: request{contentType: appJSON, body: jsonBody(nodes500, "", "")},
			want: wantBody(200, data500)},
		{name: "501 nodes", req: request{contentType: appJSON, body: jsonBody(nodes501, "", "")},
			want: wantBody(400, limitBody("query node count 501 exceeds the maximum of 500", "nodes", 500, 501, 1, column(t, nodes501, "a500:", 1)))},
		{name: "5 nodes of 5", limits: limits.Config{MaxNodes: 5}, req: request{contentType: appGQL, body: nodes5},
			want: wantBody(200, data5)},
		{name: "6 nodes of 5", limits: limits.Config{MaxNodes: 5}, req: request{contentType: appGQL, body: nodes6},
			want: wantBody(400, limitBody("query node count 6 exceeds the maximum of 5", "nodes", 5, 6, 1, column(t, nodes6, "a5:", 1)))},
		// The validator walks every operation: their nodes add up.
		{name: "every operation is checked, not only the selected one", req: request{contentType: appJSON,
			body: jsonBody("query Small { hello } query Big "+nodes501, "", "Small")},
			want: wantBody(400, limitBody("query node count 502 exceeds the maximum of 500", "nodes", 500, 502, 1, 32+column(t, nodes501, "a499:", 1)))},
		{name: "500 nodes in two operations", req: request{contentType: appJSON,
			body: jsonBody("query Q1 "+nodes250+" query Q2 "+nodes250, "", "Q2")},
			want: wantBody(200, data250)},
		{name: "501 nodes in two operations", req: request{contentType: appJSON,
			body: jsonBody("query Q1 "+nodes250+" query Q2 "+nodes251, "", "Q1")},
			want: wantBody(400, limitBody("query node count 501 exceeds the maximum of 500", "nodes", 500, 501, 1,
				len("query Q1 "+nodes250+" query Q2 ")+column(t, nodes251, "a250:", 1)))},

		// length and the request body cap
		{name: "length 20000, application/graphql", req: request{contentType: appGQL, body: padded(20000)},
			want: wantBody(200, helloData)},
		{name: "length 20001, application/graphql", req: request{contentType: appGQL, body: padded(20001)},
			want: wantBody(400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))},
		{name: "length 20000, GET", req: request{method: "GET", rawQuery: getQuery(padded(20000), "", "")},
			want: wantBody(200, helloData)},
		{name: "length 20001, GET", req: request{method: "GET", rawQuery: getQuery(padded(20001), "", "")},
			want: wantBody(400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))},
		{name: "body 20000, application/json", req: request{contentType: appJSON, body: paddedJSON(20000)},
			want: wantBody(200, helloData)},
		{name: "body 20001, application/json", req: request{contentType: appJSON, body: paddedJSON(20001)},
			want: wantBody(400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))},
		{name: "body 1 MB, application/json", req: request{contentType: appJSON, body: paddedJSON(1 << 20)},
			want: wantBody(400, limitBody("query length 1048576 bytes exceeds the maximum of 20000 bytes", "length", 20000, 1<<20, 0, 0))},
		{name: "body 20000 without Content-Length", req: request{contentType: appJSON, body: paddedJSON(20000), chunked: true},
			want: wantBody(200, helloData)},
		{name: "body 1 MB without Content-Length", req: request{contentType: appJSON, body: paddedJSON(1 << 20), chunked: true},
			// reading stops at the cap, so only a lower bound is known
			want: wantBody(400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))},
		{name: "body 20001 without Content-Length, application/graphql", req: request{contentType: appGQL, body: padded(20001), chunked: true},
			want: wantBody(400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))},
		{name: "length 50 of 50", limits: limits.Config{MaxLength: 50}, req: request{contentType: appGQL, body: padded(50)},
			want: wantBody(200, helloData)},
		{name: "length 51 of 50", limits: limits.Config{MaxLength: 50}, req: request{contentType: appGQL, body: padded(51)},
			want: wantBody(400, limitBody("query length 51 bytes exceeds the maximum of 50 bytes", "length", 50, 51, 0, 0))},
		{name: "length 51 of 50, GET", limits: limits.Config{MaxLength: 50}, req: request{method: "GET", rawQuery: getQuery(padded(51), "", "")},
			want: wantBody(400, limitBody("query length 51 bytes exceeds the maximum of 50 bytes", "length", 50, 51, 0, 0))},
		{name: "JSON body over the length of 50", limits: limits.Config{MaxLength: 50}, req: request{contentType: appJSON, body: paddedJSON(51)},
			want: wantBody(400, limitBody("query length 51 bytes exceeds the maximum of 50 bytes", "length", 50, 51, 0, 0))},

		// tokens
		{name: "20000 tokens", req: request{contentType: appGQL, body: listTokens(9994, false)},
			want: wantBody(200, `{"data":{"l":9994}}`)},
		{name: "20001 tokens", limits: limits.Config{MaxLength: 30000}, req: request{contentType: appGQL, body: tokens20001},
			want: wantBody(400, limitBody("query token count 20001 exceeds the maximum of 20000", "tokens", 20000, 20001, 1, len(tokens20001)))},
		{name: "100 tokens of 100", limits: limits.Config{MaxTokens: 100}, req: request{contentType: appGQL, body: listTokens(44, false)},
			want: wantBody(200, `{"data":{"l":44}}`)},
		{name: "101 tokens of 100", limits: limits.Config{MaxTokens: 100}, req: request{contentType: appGQL, body: listTokens(44, true)},
			want: wantBody(400, limitBody("query token count 101 exceeds the maximum of 100", "tokens", 100, 101, 1, len(listTokens(44, true))))},
		{name: "comments are tokens", limits: limits.Config{MaxTokens: 4}, req: request{contentType: appGQL, body: "# a comment\n{ hello }"},
			want: wantBody(200, helloData)},
		{name: "comments over the token limit", limits: limits.Config{MaxTokens: 4}, req: request{contentType: appGQL, body: "# one\n# two\n{ hello }"},
			want: wantBody(400, limitBody("query token count 5 exceeds the maximum of 4", "tokens", 4, 5, 3, 9))},

		// nesting
		{name: "nesting 64", req: request{contentType: appGQL, body: deepList(62)},
			want: wantBody(200, `{"data":{"json":1}}`)},
		{name: "nesting 65", req: request{contentType: appGQL, body: deepList(63)},
			want: wantBody(400, limitBody("query bracket nesting 65 exceeds the maximum of 64", "nesting", 64, 65, 1, column(t, deepList(63), "[", 63)))},
		{name: "nesting 5 of 5", limits: limits.Config{MaxNesting: 5}, req: request{contentType: appGQL, body: deepList(3)},
			want: wantBody(200, `{"data":{"json":1}}`)},
		{name: "nesting 6 of 5", limits: limits.Config{MaxNesting: 5}, req: request{contentType: appGQL, body: deepList(4)},
			want: wantBody(400, limitBody("query bracket nesting 6 exceeds the maximum of 5", "nesting", 5, 6, 1, column(t, deepList(4), "[", 4)))},
		{name: "brackets in strings are not nesting", limits: limits.Config{MaxNesting: 3}, req: request{contentType: appGQL, body: `{ echoStr(v: "[[[[{{{{") }`},
			want: wantBody(200, `{"data":{"echoStr":"[[[[{{{{"}}`)},

		// limits turned off
		{name: "no depth limit", limits: limits.Config{MaxDepth: limits.NoLimit}, req: request{contentType: appGQL, body: nested(30)},
			want: wantBody(200, nestedData(28))},
	}
	servers := map[limits.Config]*testServer{}
	for i, tt := range tests {
		ts := servers[tt.limits]
		if ts == nil {
			ts = newTestServer(t, graphqlhttp.Config{Limits: tt.limits})
			servers[tt.limits] = ts
		}
		t.Run(tt.name, func(t *testing.T) {
			tt.req.requestID = fmt.Sprintf("limit-%d", i)
			check(t, tt.req, ts.send(t, tt.req), tt.want)
		})
	}
}

// hostileDocuments are the documents that must be refused before
// validation, each within the default length.
func hostileDocuments() []struct{ name, query string } {
	var bomb strings.Builder
	bomb.WriteString("query { ...F20 }\nfragment F0 on Query { a:hello b:hello }\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&bomb, "fragment F%d on Query { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return []struct{ name, query string }{
		{name: "fragment bomb", query: bomb.String()},
		{name: "2000 overlapping aliases", query: "{" + strings.Repeat(" a:hello", 2000) + " }"},
		{name: "overlapping fields", query: "{" + strings.Repeat(" a:echoInt a:echoStr", 999) + " }"},
		{name: "wide introspection", query: `{ __type(name: "Query") {` + strings.Repeat(" a:name a:kind", 900) + " } }"},
	}
}

// TestHostileDocuments checks that the documents that make gqlparser's
// validator explode are answered with the node limit.
func TestHostileDocuments(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{Introspection: true})
	docs := hostileDocuments()
	want := map[string]string{
		"fragment bomb": limitBody("query node count 2097152 exceeds the maximum of 500", "nodes", 500, 2097152, 1, 12),
		"2000 overlapping aliases": limitBody("query node count 2000 exceeds the maximum of 500", "nodes", 500, 2000, 1,
			3+8*500),
		"overlapping fields": limitBody("query node count 1998 exceeds the maximum of 500", "nodes", 500, 1998, 1, 3+10*500),
		"wide introspection": limitBody("query node count 1801 exceeds the maximum of 500", "nodes", 500, 1801, 1, column(t, docs[3].query, "a:", 500)),
	}
	for _, doc := range docs {
		t.Run(doc.name, func(t *testing.T) {
			if len(doc.query) > limits.DefaultMaxLength {
				t.Fatalf("the document has %d bytes, more than the default length", len(doc.query))
			}
			for _, req := range []request{
				{contentType: "application/graphql", body: doc.query},
				{method: "GET", rawQuery: getQuery(doc.query, "", "")},
			} {
				check(t, req, ts.send(t, req), wantBody(400, want[doc.name]))
			}
		})
	}
}

// TestUndefinedVariable checks that a document using a variable its
// operation does not declare is refused before parsing with the error the
// validator gives first for it, however many such references it holds.
func TestUndefinedVariable(t *testing.T) {
	hostile := "{post(id:[" + strings.Repeat("$c", 9990) + "]){id}}"
	tests := []struct {
		name  string
		query string
		want  want
	}{
		{name: "hostile anonymous", query: hostile,
			want: wantBody(400, errorsBodyAt(`Variable "$c" is not defined.`, "GRAPHQL_VALIDATION_FAILED", 1, 11))},
		{name: "named operation", query: "query Q($id: ID!) {\n  post(id: $id) { id title(x: $x) }\n}",
			want: wantBody(400, errorsBodyAt(`Variable "$x" is not defined by operation "Q".`, "GRAPHQL_VALIDATION_FAILED", 2, 31))},
		{name: "second operation", query: `query A($id: ID!) { post(id: $id) { id } } query B { post(id: $id) { id } }`,
			want: wantBody(400, errorsBodyAt(`Variable "$id" is not defined by operation "B".`, "GRAPHQL_VALIDATION_FAILED", 1, 63))},
		{name: "dollar in a string", query: `{ post(id: "$c") { id } }`,
			want: wantBody(200, `{"data":{"post":null}}`)},
	}
	ts := newTestServer(t, graphqlhttp.Config{})
	schema := testSchema(t, new(atomic.Int64))
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request{contentType: "application/graphql", body: tt.query, requestID: fmt.Sprintf("undefined-%d", i)}
			check(t, req, ts.send(t, req), tt.want)

			// The validator's first error is the same.
			doc, perr := graphql.ParseQuery(tt.query, 0)
			if perr != nil {
				t.Fatalf("ParseQuery: %v", perr)
			}
			errs, fault := schema.Validate(doc, graphql.ValidateOptions{})
			if fault != nil {
				t.Fatalf("Validate fault: %v", fault)
			}
			if tt.want.status == 200 {
				if len(errs) > 0 {
					t.Fatalf("Validate = %v, want no error", errs)
				}
				return
			}
			if len(errs) == 0 {
				t.Fatal("Validate found no error")
			}
			first := errs[0]
			if got, want := errorsBodyAt(first.Message, "GRAPHQL_VALIDATION_FAILED", first.Locations[0].Line, first.Locations[0].Column), tt.want.body; got != want {
				t.Errorf("validator's first error %s, want %s", got, want)
			}
		})
	}
}

// largestDocument is a document of about the largest size the default
// limits accept (20,000 bytes, up to 20,000 tokens), made of list
// literals: every item must be read, checked and coerced, so their cost
// grows with the document. Each is a variant an attacker could send
// instead of the plain list: with a comment, unclosed, with strings that
// hold escapes or are block strings, with invalid items, or beside an
// unknown field.
type largestDocument struct {
	name, query string
	status      int
	body        string
	errs        int // the number of errors in the answer
}

func largestDocuments() []largestDocument {
	items := func(item string, n int) string { return strings.Repeat(item, n) }
	unclosed := "{l(v:[" + items("[]", 9994) + "]w:1)"
	// The first 100 of the 6663 errors: MaxErrors.
	var invalid []string
	for i := range 100 {
		invalid = append(invalid, fmt.Sprintf(`{"message":"Int cannot represent non-integer value: a","locations":[{"line":1,"column":%d}],`+
			`"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`, 8+3*i))
	}
	invalidItems := `{"errors":[` + strings.Join(invalid, ",") + "]}"
	return []largestDocument{
		{name: "20000 tokens", query: listTokens(9994, false), status: 200, body: `{"data":{"l":9994}}`},
		// A comment is a token of its own: 9993 pairs plus 14 tokens.
		{name: "20000 tokens after a comment", query: "# a comment\n{l(v:[" + items("[]", 9988) + "]w:1)}",
			status: 200, body: `{"data":{"l":9988}}`},
		{name: "20000 tokens unclosed", query: unclosed, status: 400,
			body: errorsBodyAt("Syntax Error: Expected Name, found <EOF>", "GRAPHQL_PARSE_FAILED", 1, len(unclosed)+1), errs: 1},
		{name: "10000 Int items", query: "{l(v:[[" + items("1 ", 9990) + "]])}", status: 200, body: `{"data":{"l":1}}`},
		{name: "strings with escapes", query: `{strs(v:[` + items(`"\n"`, 4994) + `])}`,
			status: 200, body: `{"data":{"strs":4994}}`},
		{name: "block strings", query: `{strs(v:[` + items(`"""b""" `, 2498) + `])}`,
			status: 200, body: `{"data":{"strs":2498}}`},
		{name: "20000 tokens of invalid items", query: "{l(v:[" + items("[a]", 6663) + "])}", status: 400,
			body: invalidItems, errs: 100},
		{name: "20000 tokens and an unknown field", query: "{l(v:[" + items("[]", 9991) + "]w:1) nope}", status: 400,
			body: errorsBodyAt(`Cannot query field "nope" on type "Query".`, "GRAPHQL_VALIDATION_FAILED", 1, 19995), errs: 1},
		// Each operation alone is within the node limit; the validator
		// walks the fragment for each of them, 450,000 nodes in all: the
		// limit counts them together and stops at the second.
		{name: "1000 operations spreading a fragment of 450 fields", query: spreadOperations, status: 400,
			body: limitBody("query node count 900 exceeds the maximum of 500", "nodes", 500, 900, 3, 13), errs: 1},
	}
}

// spreadOperations is a fragment of 450 fields and 1000 operations that
// each spread it, 19,614 bytes.
var spreadOperations = func() string {
	var b strings.Builder
	b.WriteString("fragment F on Query { " + strings.Repeat("hello ", 450) + "}\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "query Q%d{...F}\n", i)
	}
	return b.String()
}()

// TestLargestDocuments checks the answers to the largest documents the
// limits accept; BenchmarkHostile measures them.
func TestLargestDocuments(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	for _, doc := range largestDocuments() {
		t.Run(doc.name, func(t *testing.T) {
			if len(doc.query) > limits.DefaultMaxLength {
				t.Fatalf("the document has %d bytes, more than the default length", len(doc.query))
			}
			stats, err := limits.Config{}.Scan(doc.query)
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			t.Logf("%d bytes, %d tokens", len(doc.query), stats.Tokens)
			req := request{contentType: "application/graphql", body: doc.query}
			for range 2 { // a miss, then the same text from the cache
				got := ts.send(t, req)
				if got.status != doc.status || got.body != doc.body || strings.Count(got.body, `"message"`) != doc.errs {
					t.Fatalf("answer = %d %.400s (%d errors), want %d %.400s (%d errors)", got.status, got.body,
						strings.Count(got.body, `"message"`), doc.status, doc.body, doc.errs)
				}
			}
		})
	}
}

// TestFragmentsNestedPastPlanning: within every default limit, five
// fragments of 59 nested inline fragments each put 300 fragments between
// the root and a field; planning follows 256, so the document is refused
// (before, the answer left the field out without an error).
func TestFragmentsNestedPastPlanning(t *testing.T) {
	var b strings.Builder
	b.WriteString("{ ...F0 other: hello }")
	for i := range 5 {
		inside := fmt.Sprintf("...F%d", i+1)
		if i == 4 {
			inside = "hello"
		}
		fmt.Fprintf(&b, " fragment F%d on Query { %s%s%s }", i, strings.Repeat("... { ", 59), inside, strings.Repeat(" }", 59))
	}
	ts := newTestServer(t, graphqlhttp.Config{})
	req := request{contentType: "application/graphql", body: b.String()}
	check(t, req, ts.send(t, req), wantBody(400, errorsBodyAt("The operation nests more than 256 fragments between two fields.",
		"GRAPHQL_VALIDATION_FAILED", 1, 6)))
}
