package graphqlhttp_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// fuzzHandler is the handler the fuzz targets drive: the test schema
// (without its deliberate bug outside resolvers) with the default limits and
// cache, and authentication wired in.
func fuzzHandler(f *testing.F) http.Handler {
	f.Helper()
	verifier, err := auth.NewVerifier(auth.HMAC(testSecret), auth.Config{})
	if err != nil {
		f.Fatalf("NewVerifier: %v", err)
	}
	h, err := graphqlhttp.New(buildTestSchema(f, new(atomic.Int64), false), graphqlhttp.Config{
		Presenter: apierror.Presenter{Logger: nopLogger()},
		Auth:      verifier,
	})
	if err != nil {
		f.Fatalf("New: %v", err)
	}
	return h
}

// checkFuzzAnswer checks what every answer must be, whatever the request:
// a known 2xx or 4xx status, JSON with the right headers, "data" exactly
// when the status is 200, and at least one error otherwise.
func checkFuzzAnswer(t *testing.T, rec *httptest.ResponseRecorder, allowed map[int]bool) {
	t.Helper()
	body := rec.Body.Bytes()
	if !allowed[rec.Code] {
		t.Fatalf("status %d, body %s", rec.Code, body)
	}
	h := rec.Header()
	if h.Get("Cache-Control") != "no-store" || h.Get("Content-Type") != jsonType || h.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Fatalf("headers %v for a body of %d bytes", h, len(body))
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("body is not a JSON object (%v): %s", err, body)
	}
	_, hasData := resp["data"]
	var errs []map[string]json.RawMessage
	if raw, ok := resp["errors"]; ok {
		if err := json.Unmarshal(raw, &errs); err != nil || len(errs) == 0 || len(errs) > graphqlhttp.MaxErrors {
			t.Fatalf("errors is not a list of 1..%d objects: %s", graphqlhttp.MaxErrors, raw)
		}
	}
	switch {
	case rec.Code == http.StatusOK && !hasData:
		t.Fatalf("200 without data: %s", body)
	case rec.Code != http.StatusOK && (hasData || len(errs) == 0):
		t.Fatalf("status %d needs errors and no data: %s", rec.Code, body)
	}
	for k := range resp {
		if k != "data" && k != "errors" {
			t.Fatalf("the response has the member %q: %s", k, body)
		}
	}
	for i, e := range errs {
		var msg string
		if err := json.Unmarshal(e["message"], &msg); err != nil || msg == "" {
			t.Fatalf("errors[%d] has no message: %s", i, body)
		}
		for k := range e {
			switch k {
			case "message", "locations", "path", "extensions":
			default:
				t.Fatalf("errors[%d] has the member %q: %s", i, k, body)
			}
		}
	}
	if rec.Code == http.StatusMethodNotAllowed && h.Get("Allow") != "POST" {
		t.Fatalf("405 with Allow %q", h.Get("Allow"))
	}
}

// FuzzDecodeBody posts arbitrary bodies as application/json. Seeds are in
// testdata/fuzz/FuzzDecodeBody.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"query":"{ hello }"}`,
		`{"query":"query($v: Int) { echoInt(v: $v) }","variables":{"v":1},"operationName":null}`,
		`{"query":"mutation { whoami }"}`,
		`[{"query":"{ hello }"}]`,
		`{"query":`,
	} {
		f.Add([]byte(seed))
	}
	h := fuzzHandler(f)
	allowed := map[int]bool{200: true, 400: true, 401: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/api/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkFuzzAnswer(t, rec, allowed)
	})
}

// FuzzGETParams sends arbitrary query, variables and operationName
// parameters in a GET request. Seeds are in testdata/fuzz/FuzzGETParams.
func FuzzGETParams(f *testing.F) {
	f.Add("{ hello }", "", "")
	f.Add("query Q($v: Int) { echoInt(v: $v) } mutation M { whoami }", `{"v":2}`, "Q")
	f.Add("mutation { whoami }", "null", "")
	h := fuzzHandler(f)
	allowed := map[int]bool{200: true, 400: true, 401: true, 405: true}
	f.Fuzz(func(t *testing.T, query, variables, operationName string) {
		v := url.Values{"query": {query}, "variables": {variables}, "operationName": {operationName}}
		req := httptest.NewRequest(http.MethodGet, "/api/graphql?"+v.Encode(), nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkFuzzAnswer(t, rec, allowed)
	})
}
