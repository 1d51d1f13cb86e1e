package articles_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestCreate(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		adaID, ada := e.user("Ada")
		bobID, _ := e.user("Bob")

		// user_id, id and unknown fields are ignored; title and body are
		// trimmed; published defaults to false.
		got := e.do(request{method: "POST", path: "/api/articles", token: ada,
			body: fmt.Sprintf(`{"user_id":%d,"id":77,"title":"  Grüße <b>&</b>\u00a0","body":"\n Body \"quoted\"\n","extra":{"x":[1]}}`, bobID)})
		id := idOf(t, got.body)
		want := articleJSON(id, adaID, `"Grüße <b>&</b>"`, `"Body \"quoted\""`, false, nowJSON, `"Ada"`)
		expect(t, "POST /api/articles", got, http.StatusCreated, `{"data":`+want+`}`)
		if loc, wantLoc := got.header.Get("Location"), e.srv.URL+"/api/articles/"+strconv.FormatInt(id, 10); loc != wantLoc {
			t.Errorf("Location = %q, want %q", loc, wantLoc)
		}
		// A draft is not readable...
		expect(t, "GET the new draft", e.do(request{method: "GET", path: "/api/articles/" + strconv.FormatInt(id, 10)}), http.StatusNotFound, notFound)

		// ...a published article is, exactly as created.
		got = e.do(request{method: "POST", path: "/api/articles/", token: ada, body: `{"title":"Hello","body":"World","published":true}`})
		id = idOf(t, got.body)
		want = `{"data":` + articleJSON(id, adaID, `"Hello"`, `"World"`, true, nowJSON, `"Ada"`) + `}`
		expect(t, "POST /api/articles/", got, http.StatusCreated, want)
		if loc, wantLoc := got.header.Get("Location"), e.srv.URL+"/api/articles/"+strconv.FormatInt(id, 10); loc != wantLoc {
			t.Errorf("Location after POST to the trailing slash = %q, want %q", loc, wantLoc)
		}
		expect(t, "GET the new article", e.do(request{method: "GET", path: "/api/articles/" + strconv.FormatInt(id, 10)}), http.StatusOK, want)
	})
}

func TestCreatePublished(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		for _, c := range []struct {
			value string
			want  string // "true", "false" or "" for a 422
		}{
			{value: `true`, want: "true"},
			{value: `false`, want: "false"},
			{value: `1`, want: "true"},
			{value: `0`, want: "false"},
			{value: `"1"`, want: "true"},
			{value: `"0"`, want: "false"},
			{value: `" 1 "`, want: "true"},
			{value: `null`},
			{value: `""`},
			{value: `"true"`},
			{value: `"false"`},
			{value: `"yes"`},
			{value: `2`},
			{value: `-1`},
			{value: `1.0`},
			{value: `1e0`},
			{value: `[]`},
			{value: `[true]`},
			{value: `{}`},
		} {
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: `{"title":"t","body":"b","published":` + c.value + `}`})
			if c.want == "" {
				expect(t, "published "+c.value, got, http.StatusUnprocessableEntity,
					`{"message":"The published field must be true or false.","errors":{"published":["The published field must be true or false."]}}`)
				continue
			}
			if got.status != http.StatusCreated || !strings.Contains(got.body, `"published":`+c.want+`,`) {
				t.Errorf("published %s: %d %s, want 201 with published %s", c.value, got.status, got.body, c.want)
			}
		}
	})
}

func TestCreateValidation(t *testing.T) {
	const (
		titleRequired  = "The title field is required."
		titleString    = "The title field must be a string."
		titleMax       = "The title field must not be greater than 200 characters."
		bodyRequired   = "The body field is required."
		bodyString     = "The body field must be a string."
		publishedBool  = "The published field must be true or false."
		titleNullChars = "The title field must not contain null characters."
	)
	one := func(field, msg string) string {
		return fmt.Sprintf(`{"message":"%s","errors":{"%s":["%s"]}}`, msg, field, msg)
	}
	cases := []struct {
		name string
		body string
		want string // exact 422 body; "" means 201
	}{
		{name: "empty object", body: `{}`,
			want: `{"message":"The title field is required. (and 1 more error)","errors":{"title":["The title field is required."],"body":["The body field is required."]}}`},
		{name: "all null", body: `{"title":null,"body":null,"published":null}`,
			want: `{"message":"The title field is required. (and 2 more errors)","errors":{"title":["The title field is required."],"body":["The body field is required."],"published":["The published field must be true or false."]}}`},
		{name: "body only wrong", body: `{"body":7,"title":"t"}`, want: one("body", bodyString)},
		{name: "title missing", body: `{"body":"b"}`, want: one("title", titleRequired)},
		{name: "title empty", body: `{"title":"","body":"b"}`, want: one("title", titleRequired)},
		{name: "title blank", body: `{"title":" \t\r\n\u00a0\u3000\ufeff","body":"b"}`, want: one("title", titleRequired)},
		{name: "title number", body: `{"title":123,"body":"b"}`, want: one("title", titleString)},
		{name: "title true", body: `{"title":true,"body":"b"}`, want: one("title", titleString)},
		{name: "title false", body: `{"title":false,"body":"b"}`, want: one("title", titleString)},
		{name: "title empty array", body: `{"title":[],"body":"b"}`, want: one("title", titleRequired)},
		{name: "title empty object", body: `{"title":{ },"body":"b"}`, want: one("title", titleRequired)},
		{name: "title array", body: `{"title":["t"],"body":"b"}`, want: one("title", titleString)},
		{name: "title object", body: `{"title":{"t":1},"body":"b"}`, want: one("title", titleString)},
		{name: "title 201 ASCII", body: `{"title":"` + strings.Repeat("a", 201) + `","body":"b"}`, want: one("title", titleMax)},
		{name: "title 201 two-byte", body: `{"title":"` + strings.Repeat("é", 201) + `","body":"b"}`, want: one("title", titleMax)},
		{name: "title 200 four-byte", body: `{"title":"` + strings.Repeat("😀", 200) + `","body":"b"}`},
		{name: "title 200 after trimming", body: `{"title":"  ` + strings.Repeat("a", 200) + `  ","body":"b"}`},
		{name: "title NUL", body: `{"title":"a\u0000b","body":"b"}`, want: one("title", titleNullChars)},
		{name: "duplicate key, last wins", body: `{"title":5,"title":"t","body":"b"}`},
		{name: "body missing", body: `{"title":"t"}`, want: one("body", bodyRequired)},
		{name: "body blank", body: `{"title":"t","body":"   \n"}`, want: one("body", bodyRequired)},
		{name: "body number", body: `{"title":"t","body":1}`, want: one("body", bodyString)},
		{name: "body NUL", body: `{"title":"t","body":"\u0000"}`, want: one("body", "The body field must not contain null characters.")},
		{name: "title and published", body: `{"title":"` + strings.Repeat("x", 300) + `","body":"b","published":"on"}`,
			want: `{"message":"` + titleMax + ` (and 1 more error)","errors":{"title":["` + titleMax + `"],"published":["` + publishedBool + `"]}}`},
		{name: "user_id ignored", body: `{"title":"t","body":"b","user_id":"not even a number"}`},
		// Every failing rule of a field reports, as in Laravel (before
		// the shared rules, only the first did).
		{name: "title too long with NUL", body: `{"title":"` + strings.Repeat("a", 200) + `\u0000","body":"b"}`,
			want: `{"message":"` + titleMax + ` (and 1 more error)","errors":{"title":["` + titleMax + `","` + titleNullChars + `"]}}`},
		// Max measures a value by its kind (validate.Max): a number by
		// its value, a list by its items. Laravel, without a numeric or
		// array rule, measures a number by its digits (and reports only
		// the string rule) and says "characters" for the items of a list.
		// Once String fails, the size rules do not measure the value (as
		// Laravel measures a number by its digits, not its value).
		{name: "title number over 200", body: `{"title":201,"body":"b"}`,
			want: `{"message":"` + titleString + `","errors":{"title":["` + titleString + `"]}}`},
		{name: "title list of 201", body: `{"title":[` + strings.Repeat("0,", 200) + `0],"body":"b"}`,
			want: `{"message":"` + titleString + `","errors":{"title":["` + titleString + `"]}}`},
	}
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		for _, c := range cases {
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: c.body})
			if c.want == "" {
				if got.status != http.StatusCreated {
					t.Errorf("%s: status = %d, want 201 (body %s)", c.name, got.status, got.body)
				}
				continue
			}
			expect(t, c.name, got, http.StatusUnprocessableEntity, c.want)
		}
	})
}

func TestCreateTransport(t *testing.T) {
	const (
		unsupported = `{"message":"The request body must be sent as application/json."}`
		malformed   = `{"message":"Malformed JSON."}`
		notObject   = `{"message":"The request body must be a JSON object."}`
		tooLarge    = `{"message":"The request body is too large."}`
	)
	valid := `{"title":"t","body":"b"}`
	// exactly is a valid body of exactly n bytes.
	exactly := func(n int) string {
		head, tail := `{"title":"t","body":"`, `"}`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	cases := []struct {
		name        string
		body        string
		contentType string
		chunked     bool
		status      int
		want        string // exact body unless the status is 201
	}{
		{name: "text/plain", body: valid, contentType: "text/plain", status: 415, want: unsupported},
		{name: "no Content-Type", body: valid, contentType: "-", status: 415, want: unsupported},
		{name: "form", body: "title=t&body=b", contentType: "application/x-www-form-urlencoded", status: 415, want: unsupported},
		{name: "bad media type", body: valid, contentType: "application/json; charset", status: 415, want: unsupported},
		{name: "charset", body: valid, contentType: "application/json; charset=utf-8", status: 201},
		{name: "+json", body: valid, contentType: "application/vnd.api+json", status: 201},
		{name: "empty body", body: "", contentType: "application/json", status: 400, want: malformed},
		{name: "truncated", body: `{"title":"t"`, status: 400, want: malformed},
		{name: "trailing data", body: valid + ` {}`, status: 400, want: malformed},
		{name: "single quotes", body: `{'title':'t'}`, status: 400, want: malformed},
		{name: "array", body: `[` + valid + `]`, status: 400, want: notObject},
		{name: "string", body: `"text"`, status: 400, want: notObject},
		{name: "number", body: `42`, status: 400, want: notObject},
		{name: "null", body: ` null `, status: 400, want: notObject},
		{name: "exactly 1 MiB", body: exactly(1 << 20), status: 201},
		{name: "1 MiB + 1", body: exactly(1<<20 + 1), status: 413, want: tooLarge},
		{name: "1 MiB + 1, chunked", body: exactly(1<<20 + 1), chunked: true, status: 413, want: tooLarge},
		{name: "exactly 1 MiB, chunked", body: exactly(1 << 20), chunked: true, status: 201},
	}
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		for _, c := range cases {
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: c.body, contentType: c.contentType, chunked: c.chunked})
			if c.status == http.StatusCreated {
				if got.status != c.status {
					t.Errorf("%s: status = %d, want 201 (body %.300s)", c.name, got.status, got.body)
				}
				continue
			}
			expect(t, c.name, got, c.status, c.want)
		}
	})
}

func TestCreateUnauthenticated(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		goneID, gone := e.user("Gone")
		if err := e.store.DeleteUser(t.Context(), goneID); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name   string
			token  string
			header map[string]string
			body   string
		}{
			{name: "no token", body: `{"title":"t","body":"b","published":true}`},
			{name: "no token, invalid body", body: `{}`},
			{name: "no token, malformed body", body: `{`},
			{name: "garbage token", token: "garbage", body: `{"title":"t","body":"b","published":true}`},
			{name: "basic auth", header: map[string]string{"Authorization": "Basic YTpi"}, body: `{"title":"t","body":"b","published":true}`},
			{name: "deleted user", token: gone, body: `{"title":"t","body":"b","published":true}`},
		} {
			got := e.do(request{method: "POST", path: "/api/articles", token: c.token, header: c.header, body: c.body})
			expect(t, c.name, got, http.StatusUnauthorized, unauthenticated)
			if h := got.header.Get("WWW-Authenticate"); h != "Bearer" {
				t.Errorf("%s: WWW-Authenticate = %q, want Bearer", c.name, h)
			}
		}
		// Nothing was written.
		if got := e.do(request{method: "GET", path: "/api/articles"}); !strings.Contains(got.body, `"total":0}`) {
			t.Errorf("after refused creates the list is %s, want total 0", got.body)
		}
	})
}
