package graphiql

import (
	"net/http"
	"strconv"
	"strings"
)

// apiTypes are the media types of a GraphQL answer: a request that ranks
// any of them as high as text/html gets the endpoint's answer, not the
// page.
var apiTypes = [...]string{"application/graphql-response+json", "application/json", "multipart/mixed"}

// WantsPage reports whether r is a browser asking for a page: a GET or
// HEAD whose Accept header names text/html with a quality above that of
// every GraphQL answer type (application/graphql-response+json,
// application/json, multipart/mixed). Wildcards (*/*, text/*) count for
// neither side, so a browser's navigation (text/html, …, */*;q=0.8)
// wants the page and a client that sends Accept: */* or no Accept at all
// gets the endpoint's answer, as does "application/json, text/html".
func WantsPage(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	accept := strings.Join(r.Header.Values("Accept"), ",")
	html, ok := quality(accept, "text/html")
	if !ok || html == 0 {
		return false
	}
	for _, t := range apiTypes {
		if q, ok := quality(accept, t); ok && q >= html {
			return false
		}
	}
	return true
}

// quality is the q value that the comma-separated list header gives the
// token want (compared without case, parameters other than q ignored),
// and whether the list names it. A malformed q (NaN included) counts as
// 0, a q above 1 as 1; when the list names a token twice, the highest q wins.
func quality(header, want string) (float64, bool) {
	best, found := 0.0, false
	for part := range strings.SplitSeq(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(token), want) {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				switch {
				case err != nil || !(f >= 0): // NaN too
					q = 0
				case f > 1:
					q = 1
				default:
					q = f
				}
			}
		}
		if !found || q > best {
			best = q
		}
		found = true
	}
	return best, found
}

// acceptsGzip reports whether r's Accept-Encoding takes gzip: named with
// a quality above 0, or a * above 0 with gzip not named.
func acceptsGzip(r *http.Request) bool {
	ae := strings.Join(r.Header.Values("Accept-Encoding"), ",")
	if q, ok := quality(ae, "gzip"); ok {
		return q > 0
	}
	if q, ok := quality(ae, "x-gzip"); ok {
		return q > 0
	}
	q, ok := quality(ae, "*")
	return ok && q > 0
}
