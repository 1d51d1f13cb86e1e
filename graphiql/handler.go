package graphiql

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
)

const (
	// Version is the GraphiQL release that the package embeds (the
	// manifest, dist/manifest.json, records it for each file).
	Version = "4.1.2"

	// DefaultAssetsPath is where a Handler serves its assets when
	// Config.AssetsPath is empty.
	DefaultAssetsPath = "/graphiql/"

	// DefaultTitle is the page's title when Config.Title is empty.
	DefaultTitle = "GraphiQL"

	// ContentSecurityPolicy is the policy of the assets, and that of the
	// page with one addition: scripts, styles and connections from the
	// page's own origin only, no inline script or style, images and
	// fonts from the origin or data: URLs (GraphiQL's stylesheet holds its
	// fonts and icons as data: URLs), nothing else. The page's style-src
	// also names a nonce, new for each answer, that init.js hands to
	// GraphiQL for the one <style> element its dialogs add (see the
	// package doc).
	ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
		"img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

// Config configures a [Handler]. Its zero value serves the assets under
// DefaultAssetsPath and a page that sends its queries to the URL path it
// was served at (right for [Handler.Negotiate]).
type Config struct {
	// Endpoint is the URL path of the GraphQL endpoint that the page
	// queries, such as "/api/graphql": a path on the page's own origin
	// (the policy allows connections to it only). Empty means the path of
	// the page itself.
	Endpoint string

	// AssetsPath is the URL path under which the Handler serves the
	// assets (scripts and stylesheets) that the page loads, starting and
	// ending with "/"; the router must send the requests under it to the
	// Handler. Empty means DefaultAssetsPath.
	AssetsPath string

	// Title is the page's title; empty means DefaultTitle.
	Title string
}

// Handler serves the GraphiQL page and its assets; see the package doc.
// It holds no state after New and is safe for concurrent use.
type Handler struct {
	assetsPath string
	assets     map[string]*asset
	// The page is pageHead + nonce + pageTail.
	pageHead, pageTail []byte
	// The page's policy is policyHead + nonce + policyTail.
	policyHead, policyTail string
}

// noncePlaceholder stands for the nonce in the rendered page.
const noncePlaceholder = "gqlkit-graphiql-nonce"

// New checks cfg and returns a Handler. An Endpoint that is not a path
// (a URL with a scheme or host, say) or an AssetsPath that does not start
// and end with "/" is an error.
func New(cfg Config) (*Handler, error) {
	var problems []error
	if cfg.Endpoint != "" {
		u, err := url.Parse(cfg.Endpoint)
		if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(cfg.Endpoint, "/") || strings.HasPrefix(cfg.Endpoint, "//") {
			problems = append(problems, fmt.Errorf("graphiql: Endpoint %q is not a URL path on the page's origin", cfg.Endpoint))
		}
	}
	if cfg.AssetsPath == "" {
		cfg.AssetsPath = DefaultAssetsPath
	}
	if !strings.HasPrefix(cfg.AssetsPath, "/") || !strings.HasSuffix(cfg.AssetsPath, "/") || strings.ContainsAny(cfg.AssetsPath, "?#") {
		problems = append(problems, fmt.Errorf("graphiql: AssetsPath %q must be a path that starts and ends with /", cfg.AssetsPath))
	}
	if cfg.Title == "" {
		cfg.Title = DefaultTitle
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	assets, err := loadAssets(files)
	if err != nil {
		return nil, err
	}
	h := &Handler{assetsPath: cfg.AssetsPath, assets: assets}
	page, err := h.render(cfg)
	if err != nil {
		return nil, err
	}
	head, tail, ok := bytes.Cut(page, []byte(noncePlaceholder))
	if !ok || bytes.Contains(tail, []byte(noncePlaceholder)) {
		return nil, errors.New("graphiql: the page must hold the nonce once")
	}
	h.pageHead, h.pageTail = head, tail
	h.policyHead, h.policyTail, _ = strings.Cut(ContentSecurityPolicy, "style-src 'self'")
	h.policyHead += "style-src 'self' 'nonce-"
	h.policyTail = "'" + h.policyTail
	return h, nil
}

// pageTemplate is the page: no inline script or style, the endpoint in a
// data attribute that init.js reads.
const pageTemplate = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{call .Asset "graphiql.css"}}">
<link rel="stylesheet" href="{{call .Asset "page.css"}}">
</head>
<body>
<div id="graphiql" data-endpoint="{{.Endpoint}}" data-style-nonce="{{.Nonce}}">Loading GraphiQL…</div>
<script src="{{call .Asset "react.js"}}"></script>
<script src="{{call .Asset "react-dom.js"}}"></script>
<script src="{{call .Asset "graphiql.js"}}"></script>
<script src="{{call .Asset "init.js"}}"></script>
</body>
</html>
`

// render executes the page's template once.
func (h *Handler) render(cfg Config) ([]byte, error) {
	t, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return nil, fmt.Errorf("graphiql: the page's template: %w", err)
	}
	var buf bytes.Buffer
	data := struct {
		Title, Endpoint, Nonce string
		Asset                  func(string) (string, error)
	}{Title: cfg.Title, Endpoint: cfg.Endpoint, Nonce: noncePlaceholder, Asset: h.assetURL}
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("graphiql: rendering the page: %w", err)
	}
	return buf.Bytes(), nil
}

// assetURL is the URL of an asset, with its version.
func (h *Handler) assetURL(name string) (string, error) {
	a, ok := h.assets[name]
	if !ok {
		return "", fmt.Errorf("graphiql: no asset %s", name)
	}
	return h.assetsPath + name + "?v=" + a.version, nil
}

// ServeHTTP answers a request under the assets path with the asset it
// names (404 when there is none) and any other with the page. Methods
// other than GET and HEAD get 405 with Allow: GET, HEAD.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", ContentSecurityPolicy)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if name, ok := strings.CutPrefix(r.URL.Path, h.assetsPath); ok {
		h.serveAsset(w, r, name)
		return
	}
	h.servePage(w, r)
}

// servePage answers with the page, under a policy whose style-src names
// the page's nonce, a random value of its own.
func (h *Handler) servePage(w http.ResponseWriter, r *http.Request) {
	nonce := rand.Text()
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", h.policyHead+nonce+h.policyTail)
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Cache-Control", "no-store") // the nonce is new each time
	hdr.Set("Content-Length", fmt.Sprint(len(h.pageHead)+len(nonce)+len(h.pageTail)))
	if r.Method == http.MethodHead {
		return
	}
	page := make([]byte, 0, len(h.pageHead)+len(nonce)+len(h.pageTail))
	page = append(append(append(page, h.pageHead...), nonce...), h.pageTail...)
	w.Write(page) //nolint:errcheck // the client left
}

// Negotiate is middleware for a GraphQL endpoint: it answers the requests
// for which [WantsPage] holds (a browser's GET) with the page, and passes
// every other request on to api unchanged. The router must also send the
// requests under the assets path to h itself.
func (h *Handler) Negotiate(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if WantsPage(r) {
			h.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// serveAsset answers with an asset: compressed to a client that accepts
// gzip, else decompressed on the way; cached for a year when the URL
// carries the asset's current version (the page's links do), revalidated
// otherwise.
func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := h.assets[name]
	if !ok {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", a.contentType)
	hdr.Set("Cross-Origin-Resource-Policy", "same-origin")
	etag := `"` + a.version + `"`
	if r.URL.Query().Get("v") == a.version {
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hdr.Set("Cache-Control", "no-cache")
	}
	if a.gzipped {
		hdr.Set("Vary", "Accept-Encoding")
		etag = `W/` + etag // one tag for both encodings
	}
	hdr.Set("ETag", etag)
	if matches(r.Header.Values("If-None-Match"), a.version) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if !a.gzipped || acceptsGzip(r) {
		if a.gzipped {
			hdr.Set("Content-Encoding", "gzip")
		}
		hdr.Set("Content-Length", fmt.Sprint(len(a.body)))
		if r.Method != http.MethodHead {
			w.Write(a.body) //nolint:errcheck // the client left
		}
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(a.body))
	if err != nil { // the embedded file is checked by the tests: not reached
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	io.Copy(w, zr) //nolint:errcheck // the client left, or a test catches a bad file
}

// matches reports whether an If-None-Match header names the version, in
// a weak or strong tag, or is *.
func matches(values []string, version string) bool {
	for _, v := range values {
		for tag := range strings.SplitSeq(v, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == `"`+version+`"` {
				return true
			}
		}
	}
	return false
}
