package articles

import (
	"net/http"
	"strings"
)

// pathID returns the article id of a request to [Handler.Show] or
// [Handler.Delete], or "" when it has none (a 404):
//
//   - the path value "article", else "id", as http.ServeMux and chi set;
//   - else nothing when the escaped path holds an encoded slash, which
//     the decoded path no longer tells from a separator;
//   - else the last segment of the path, when it is the one segment after
//     the collection: after the path of an http.ServeMux subtree pattern
//     (r.Pattern ending in a slash); without a pattern, after the
//     Handler's prefix, after a segment equal to the prefix's last one
//     (on a path outside the prefix), or as the only segment ("/7", a
//     path already stripped).
func (h *Handler) pathID(r *http.Request) string {
	if id := r.PathValue("article"); id != "" {
		return id
	}
	if id := r.PathValue("id"); id != "" {
		return id
	}
	if strings.Contains(strings.ToLower(r.URL.EscapedPath()), "%2f") {
		return ""
	}
	p := r.URL.Path
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	before, id := p[:i], p[i+1:]
	if pattern, ok := subtree(r.Pattern); ok {
		// The mux matched the subtree, so p starts with it; the id is the
		// rest when that is one segment.
		if strings.Count(p, "/") == strings.Count(pattern, "/") {
			return id
		}
		return ""
	}
	switch {
	case before == "", before == h.prefix:
		return id
	case strings.HasPrefix(p, h.prefix+"/"):
		return "" // deeper in the handler's own collection
	}
	collection := h.prefix[strings.LastIndexByte(h.prefix, '/')+1:]
	if collection != "" && before[strings.LastIndexByte(before, '/')+1:] == collection {
		return id
	}
	return ""
}

// subtree returns the path of an http.ServeMux pattern ("[METHOD ][HOST]/PATH")
// that ends in a slash, a subtree.
func subtree(pattern string) (string, bool) {
	if _, rest, ok := strings.Cut(pattern, " "); ok {
		pattern = strings.TrimLeft(rest, " \t")
	}
	i := strings.IndexByte(pattern, '/')
	if i < 0 || !strings.HasSuffix(pattern, "/") {
		return "", false
	}
	return pattern[i:], true
}
