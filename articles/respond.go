package articles

import (
	"log/slog"
	"net/http"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/stall"
)

// writeArticle answers with one article, {"data": a}, and status, its
// body written like a list's (see writeBody): an article's answer may be
// some megabytes (Config.MaxBodyBytes of text, which JSON may escape).
func (h *Handler) writeArticle(w http.ResponseWriter, r *http.Request, status int, a Article) {
	body := make([]byte, 0, len(a.Title)+len(a.Body)+len(a.Author.Name)+articleOverhead)
	body = append(body, `{"data":`...)
	body = append(a.appendJSON(body), '}')
	h.writeBody(w, r, status, body)
}

// writeBody answers with status and body, which is JSON, with a
// Content-Length, through the stall watch: a client that takes none of a
// body of stall.Chunk (64 KiB) or more for Config.StallTimeout is cut off,
// and what the answer holds goes back. A client that did not take its
// answer is logged once, at info: it went away, or was cut off.
func (h *Handler) writeBody(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	httpjson.WriteHead(w, status, len(body))
	if r.Method == http.MethodHead {
		return // net/http sends no body
	}
	if err := stall.Write(w, h.stall, body); err != nil {
		ctxlog.Log(r.Context(), h.errs.Logger, slog.LevelInfo, "articles: the client did not take its answer", ctxlog.Err(err), slog.Int("bytes", len(body)))
	}
}

// methodNotAllowed writes a 405 listing the allowed methods.
func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	httpjson.WriteMessage(w, http.StatusMethodNotAllowed, httpjson.MessageMethod)
}
