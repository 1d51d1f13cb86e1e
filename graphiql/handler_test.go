package graphiql_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphiql"
)

// get sends a request to srv with the headers (name, value pairs) and
// returns the answer with its body. The client neither asks for nor
// undoes compression by itself.
func get(t *testing.T, srv *httptest.Server, method, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func newServer(t *testing.T, cfg graphiql.Config) *httptest.Server {
	t.Helper()
	h, err := graphiql.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

var (
	nonceAttr  = regexp.MustCompile(`data-style-nonce="([^"]+)"`)
	assetLinks = regexp.MustCompile(`(?:src|href)="(/[^"]+)"`)
)

func TestPage(t *testing.T) {
	srv := newServer(t, graphiql.Config{Endpoint: "/api/graphql", AssetsPath: "/ide/", Title: "Ada's <API>"})
	res, body := get(t, srv, http.MethodGet, "/anything")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status: got %d, want 200", res.StatusCode)
	}
	m := nonceAttr.FindSubmatch(body)
	if m == nil {
		t.Fatalf("no nonce in the page:\n%s", body)
	}
	nonce := string(m[1])
	wantCSP := strings.Replace(graphiql.ContentSecurityPolicy, "style-src 'self'", "style-src 'self' 'nonce-"+nonce+"'", 1)
	for name, want := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Content-Security-Policy": wantCSP,
		"Cache-Control":           "no-store",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	for _, want := range []string{`<title>Ada&#39;s &lt;API&gt;</title>`, `data-endpoint="/api/graphql"`} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	// No inline script, no style attribute or element: every script has a
	// src, and every asset it links is served, versioned and cacheable.
	if n, src := bytes.Count(body, []byte("<script")), bytes.Count(body, []byte("<script src=")); n != src || n != 4 {
		t.Errorf("%d script elements, %d with a src; want 4 and 4", n, src)
	}
	if bytes.Contains(body, []byte("style=")) || bytes.Contains(body, []byte("<style")) {
		t.Errorf("the page has an inline style:\n%s", body)
	}
	links := assetLinks.FindAllSubmatch(body, -1)
	if len(links) != 6 {
		t.Fatalf("got %d asset links, want 6 (2 stylesheets, 4 scripts)", len(links))
	}
	for _, l := range links {
		path := string(l[1])
		if !strings.HasPrefix(path, "/ide/") || !strings.Contains(path, "?v=") {
			t.Errorf("asset link %s: want /ide/…?v=…", path)
		}
		res, _ := get(t, srv, http.MethodGet, path, "Accept-Encoding", "gzip")
		if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, Cache-Control %q", path, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}

	// Each answer has a nonce of its own; HEAD has the headers only.
	_, again := get(t, srv, http.MethodGet, "/anything")
	if m2 := nonceAttr.FindSubmatch(again); m2 == nil || string(m2[1]) == nonce {
		t.Errorf("the second page's nonce is not new: %q", m2)
	}
	head, headBody := get(t, srv, http.MethodHead, "/")
	if head.StatusCode != http.StatusOK || len(headBody) != 0 || head.Header.Get("Content-Length") != res.Header.Get("Content-Length") {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %q (GET's %q)", head.StatusCode, len(headBody),
			head.Header.Get("Content-Length"), res.Header.Get("Content-Length"))
	}
}

func TestAssets(t *testing.T) {
	srv := newServer(t, graphiql.Config{})
	// The version of graphiql.js, from the page.
	_, page := get(t, srv, http.MethodGet, "/")
	m := regexp.MustCompile(`/graphiql/graphiql\.js\?v=([0-9a-f]+)`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no graphiql.js in the page:\n%s", page)
	}
	version := string(m[1])

	gz, gzBody := get(t, srv, http.MethodGet, "/graphiql/graphiql.js?v="+version, "Accept-Encoding", "gzip, deflate, br")
	plain, plainBody := get(t, srv, http.MethodGet, "/graphiql/graphiql.js", "Accept-Encoding", "identity")
	for _, c := range []struct {
		name        string
		res         *http.Response
		encoding    string
		cache, etag string
	}{
		{name: "gzip, versioned", res: gz, encoding: "gzip", cache: "public, max-age=31536000, immutable", etag: `W/"` + version + `"`},
		{name: "identity, unversioned", res: plain, encoding: "", cache: "no-cache", etag: `W/"` + version + `"`},
	} {
		for name, want := range map[string]string{
			"Status":                  "200 OK",
			"Content-Type":            "text/javascript; charset=utf-8",
			"Content-Encoding":        c.encoding,
			"Cache-Control":           c.cache,
			"ETag":                    c.etag,
			"Vary":                    "Accept-Encoding",
			"Content-Security-Policy": graphiql.ContentSecurityPolicy,
			"X-Content-Type-Options":  "nosniff",
		} {
			got := c.res.Header.Get(name)
			if name == "Status" {
				got = c.res.Status
			}
			if got != want {
				t.Errorf("%s: %s: got %q, want %q", c.name, name, got, want)
			}
		}
	}
	zr, err := gzip.NewReader(bytes.NewReader(gzBody))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(unzipped, plainBody) {
		t.Errorf("the gzip answer (%d bytes unzipped) and the identity answer (%d bytes) differ", len(unzipped), len(plainBody))
	}
	sum := sha256.Sum256(plainBody)
	if got := hex.EncodeToString(sum[:]); !strings.HasPrefix(got, version) {
		t.Errorf("graphiql.js: sha256 %s, its URL's version %s", got, version)
	}
	if len(gzBody)*2 > len(plainBody) {
		t.Errorf("gzip: %d bytes for %d", len(gzBody), len(plainBody))
	}

	for _, c := range []struct {
		name, method, path string
		headers            []string
		status             int
		body               string
	}{
		{name: "revalidated", method: "GET", path: "/graphiql/graphiql.js", headers: []string{"If-None-Match", `"x", W/"` + version + `"`}, status: 304},
		{name: "another version", method: "GET", path: "/graphiql/graphiql.js", headers: []string{"If-None-Match", `W/"0123"`}, status: 200},
		{name: "gzip refused", method: "GET", path: "/graphiql/react.js", headers: []string{"Accept-Encoding", "gzip;q=0, *"}, status: 200},
		{name: "own file, not compressed", method: "GET", path: "/graphiql/page.css", headers: []string{"Accept-Encoding", "gzip"}, status: 200},
		{name: "licence", method: "GET", path: "/graphiql/LICENSE.graphiql", status: 200},
		{name: "unknown", method: "GET", path: "/graphiql/nothing.js", status: 404, body: "404 page not found\n"},
		{name: "the manifest is not an asset", method: "GET", path: "/graphiql/manifest.json", status: 404, body: "404 page not found\n"},
		{name: "a sub-path", method: "GET", path: "/graphiql/dist/react.js.gz", status: 404, body: "404 page not found\n"},
		{name: "POST", method: "POST", path: "/graphiql/init.js", status: 405, body: "405 method not allowed\n"},
		{name: "DELETE of the page", method: "DELETE", path: "/", status: 405, body: "405 method not allowed\n"},
	} {
		res, body := get(t, srv, c.method, c.path, c.headers...)
		if res.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.status)
		}
		if c.body != "" && string(body) != c.body {
			t.Errorf("%s: body %q, want %q", c.name, body, c.body)
		}
		if c.status == 200 && res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: Content-Encoding %q, want none", c.name, res.Header.Get("Content-Encoding"))
		}
		if c.status == 405 && res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: Allow %q, want GET, HEAD", c.name, res.Header.Get("Allow"))
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  graphiql.Config
		want []string
	}{
		{name: "absolute endpoint", cfg: graphiql.Config{Endpoint: "https://api.example.com/graphql"},
			want: []string{`graphiql: Endpoint "https://api.example.com/graphql" is not a URL path on the page's origin`}},
		{name: "scheme-relative endpoint", cfg: graphiql.Config{Endpoint: "//example.com/graphql"},
			want: []string{`graphiql: Endpoint "//example.com/graphql" is not a URL path on the page's origin`}},
		{name: "relative endpoint and assets path", cfg: graphiql.Config{Endpoint: "graphql", AssetsPath: "/ide"},
			want: []string{`graphiql: Endpoint "graphql" is not a URL path on the page's origin`,
				`graphiql: AssetsPath "/ide" must be a path that starts and ends with /`}},
		{name: "assets path with a query", cfg: graphiql.Config{AssetsPath: "/ide/?x=/"},
			want: []string{`graphiql: AssetsPath "/ide/?x=/" must be a path that starts and ends with /`}},
	} {
		h, err := graphiql.New(c.cfg)
		if h != nil || err == nil {
			t.Errorf("%s: got %v, %v; want an error", c.name, h, err)
			continue
		}
		if got, want := err.Error(), strings.Join(c.want, "\n"); got != want {
			t.Errorf("%s: got %q, want %q", c.name, got, want)
		}
	}
}

func TestNegotiate(t *testing.T) {
	ide, err := graphiql.New(graphiql.Config{})
	if err != nil {
		t.Fatal(err)
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"api":true}`)
	})
	srv := httptest.NewServer(ide.Negotiate(api))
	t.Cleanup(srv.Close)
	for _, c := range []struct {
		method, accept string
		page           bool
	}{
		{method: "GET", accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", page: true},
		{method: "HEAD", accept: "text/html", page: true},
		{method: "GET", accept: "application/graphql-response+json, application/json;q=0.9"},
		{method: "GET", accept: "*/*"},
		{method: "GET", accept: ""},
		{method: "POST", accept: "text/html"},
	} {
		res, body := get(t, srv, c.method, "/graphql", "Accept", c.accept)
		gotPage := strings.HasPrefix(res.Header.Get("Content-Type"), "text/html")
		if gotPage != c.page || res.StatusCode != http.StatusOK {
			t.Errorf("%s Accept %q: %d %s, page %t; want page %t", c.method, c.accept, res.StatusCode, res.Header.Get("Content-Type"), gotPage, c.page)
		}
		if !c.page && c.method != "HEAD" && string(body) != `{"api":true}` {
			t.Errorf("%s Accept %q: body %q", c.method, c.accept, body)
		}
	}
}

func TestWantsPage(t *testing.T) {
	for _, c := range []struct {
		method string
		accept []string
		want   bool
	}{
		{method: "GET", accept: []string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, want: true}, // Chromium, Firefox
		{method: "HEAD", accept: []string{"text/html"}, want: true},
		{method: "GET", accept: []string{"TEXT/HTML ; charset=utf-8"}, want: true},
		{method: "GET", accept: []string{"application/json;q=0.5", "text/html"}, want: true}, // two header lines
		{method: "GET", accept: []string{"text/html;q=0.9, application/json;q=0.8"}, want: true},
		{method: "GET", accept: []string{"text/html;q=2, application/json"}}, // q above 1 counts as 1: a tie
		{method: "GET", accept: []string{"application/json, text/html"}},     // a tie goes to the API
		{method: "GET", accept: []string{"application/graphql-response+json, text/html;q=0.9"}},
		{method: "GET", accept: []string{"multipart/mixed, text/html"}},
		{method: "GET", accept: []string{"text/html;q=0"}},
		{method: "GET", accept: []string{"text/html;q=abc"}},
		{method: "GET", accept: []string{"text/*"}},
		{method: "GET", accept: []string{"*/*"}},
		{method: "GET", accept: nil},
		{method: "POST", accept: []string{"text/html"}},
		{method: "OPTIONS", accept: []string{"text/html"}},
	} {
		r := httptest.NewRequest(c.method, "/graphql", nil)
		for _, a := range c.accept {
			r.Header.Add("Accept", a)
		}
		if got := graphiql.WantsPage(r); got != c.want {
			t.Errorf("%s %q: got %t, want %t", c.method, c.accept, got, c.want)
		}
	}
}
