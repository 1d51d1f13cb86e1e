package graphiql

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestQuality(t *testing.T) {
	for _, c := range []struct {
		header, token string
		q             float64
		found         bool
	}{
		{header: "text/html", token: "text/html", q: 1, found: true},
		{header: "text/html;level=1;q=0.5", token: "text/html", q: 0.5, found: true},
		{header: "text/html;q=0.2, text/html;q=0.7", token: "text/html", q: 0.7, found: true},
		{header: " Text/HTML ; Q = 0.3 ", token: "text/html", q: 0.3, found: true},
		{header: "text/html;q=-1", token: "text/html", q: 0, found: true},
		{header: "text/html;q=7", token: "text/html", q: 1, found: true},
		{header: "text/html;q=", token: "text/html", q: 0, found: true},
		{header: "text/htmlx, xtext/html", token: "text/html"},
		{header: "", token: "gzip"},
		{header: "gzip, deflate, br", token: "gzip", q: 1, found: true},
	} {
		q, found := quality(c.header, c.token)
		if q != c.q || found != c.found {
			t.Errorf("quality(%q, %q): got %v, %t; want %v, %t", c.header, c.token, q, found, c.q, c.found)
		}
	}
}

// FuzzWantsPage checks that no Accept or Accept-Encoding header panics
// the parser or yields a quality outside [0, 1], that a request that is
// not a GET or HEAD never gets the page, and that one that names a
// GraphQL answer type at full quality never does either.
func FuzzWantsPage(f *testing.F) {
	for _, s := range []string{
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		"application/graphql-response+json, application/json;q=0.9",
		"text/html;q=0.5;level=1, multipart/mixed;q=0.4", ";;,,;q=;=", "text/html;q=1e400", "text/html;q=NaN",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		for _, token := range []string{"text/html", "application/json", "gzip", "*"} {
			if q, _ := quality(header, token); !(q >= 0 && q <= 1) {
				t.Fatalf("quality(%q, %q) = %v", header, token, q)
			}
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept", header)
		r.Header.Set("Accept-Encoding", header)
		wants := WantsPage(r)
		_ = acceptsGzip(r)
		if wants && !strings.Contains(strings.ToLower(header), "text/html") {
			t.Fatalf("WantsPage with Accept %q, which does not name text/html", header)
		}
		if wants && !strings.Contains(header, ",") {
			// One media range only: it must be text/html itself.
			if q, ok := quality(header, "text/html"); !ok || q == 0 {
				t.Fatalf("WantsPage with Accept %q", header)
			}
		}
		r.Header.Add("Accept", "application/json")
		if WantsPage(r) {
			t.Fatalf("WantsPage with Accept %q and application/json", header)
		}
		r.Method = "POST"
		r.Header.Set("Accept", header)
		if WantsPage(r) {
			t.Fatalf("WantsPage for a POST with Accept %q", header)
		}
	})
}
