package httpjson_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/validate"
)

func read(body string, max int64) (map[string]json.RawMessage, *httpjson.Failure) {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	return httpjson.ReadObject(httptest.NewRecorder(), r, max)
}

func TestReadObject(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		status     int
		message    string
	}{
		{"object", ` {"a":1} `, 0, ""},
		{"empty", ``, 400, httpjson.MessageMalformed},
		{"truncated", `{"a":`, 400, httpjson.MessageMalformed},
		{"array", `[1]`, 400, httpjson.MessageNotObject},
		{"null", `null`, 400, httpjson.MessageNotObject},
		{"invalid UTF-8 in a string", "{\"a\":\"\xff\"}", 400, httpjson.MessageNotUTF8},
		{"a surrogate encoded in UTF-8", "{\"a\":\"\xed\xa0\x80\"}", 400, httpjson.MessageNotUTF8},
		{"escaped lone surrogate is JSON", `{"a":"\ud800"}`, 0, ""},
		{"over the cap", `{"a":"0123456789"}`, 413, httpjson.MessageTooLarge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fields, f := read(tt.body, 16)
			switch {
			case tt.status == 0 && (f != nil || fields == nil):
				t.Errorf("ReadObject(%q) = %v, %+v; want the object", tt.body, fields, f)
			case tt.status != 0 && (f == nil || f.Status != tt.status || f.Message != tt.message):
				t.Errorf("ReadObject(%q) failure %+v, want %d %q", tt.body, f, tt.status, tt.message)
			}
		})
	}
}

func TestWriteValidationFailed(t *testing.T) {
	var f validate.Failures
	f.Add("title", "The title field is required.")
	f.Add("body", "The body field <b> is required.")
	f = append(f, validate.Failure{Path: "tags", Messages: []string{"a", "b"}})
	rec := httptest.NewRecorder()
	httpjson.WriteValidationFailed(rec, f)
	want := `{"message":"The title field is required. (and 3 more errors)","errors":{"title":["The title field is required."],"body":["The body field <b> is required."],"tags":["a","b"]}}`
	if rec.Code != 422 || rec.Body.String() != want || rec.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("WriteValidationFailed = %d %s (Content-Length %s), want 422 %s", rec.Code, rec.Body, rec.Header().Get("Content-Length"), want)
	}
}

// FuzzReadObject checks that any body gets either a 400/413 or an object
// whose members are valid JSON, and never a panic.
func FuzzReadObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":null}]}`, "{\"a\":\"\xff\"}", `[]`, ``, `{"a":1}x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		fields, fail := read(body, 1<<10)
		if fail != nil {
			if fail.Status != 400 && fail.Status != 413 || fields != nil {
				t.Fatalf("ReadObject(%q) = %v, %+v", body, fields, fail)
			}
			return
		}
		if !utf8.ValidString(body) {
			t.Fatalf("ReadObject(%q) accepted invalid UTF-8", body)
		}
		for k, v := range fields {
			if !json.Valid(v) {
				t.Fatalf("member %q = %q is not JSON", k, v)
			}
		}
	})
}
