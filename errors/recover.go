package errors

import (
	"net/http"
	"strings"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/respwriter"
)

// Recover is middleware that turns a panic in next into a masked 500
// {"message":"Internal server error."}, logged once with its stack, so that
// a bug in one handler costs one request and never the connection. The
// headers next had set that describe its own answer (Content-Length,
// Content-Encoding, caching, cookies, Location…) are dropped first; others,
// such as X-Request-Id, stay. A panic with http.ErrAbortHandler is left to
// net/http, which uses it to abort a response on purpose.
//
// When next had already started its answer (a final status, body bytes or
// a flush that happened; 1xx informational answers do not count), nothing
// can replace it: the panic is logged and the response aborted with
// http.ErrAbortHandler, so that the client sees a broken response instead
// of a short one that looks complete. An answer that is whole without a
// body (a 204 or 304, or any status to a HEAD request, with no body
// written) is left to be sent: the panic is only logged.
//
//	mux.Handle("/api/articles/", presenter.Recover(articlesHandler))
func (p Presenter) Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &respwriter.Recorder{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			err := errcode.Recovered(v)
			if rw.Started() {
				p.REST(r.Context(), err) // logs it; the answer is already under way
				if rw.Bytes == 0 && (rw.Status == http.StatusNoContent || rw.Status == http.StatusNotModified || r.Method == http.MethodHead) {
					return // whole without a body: let it be sent
				}
				panic(http.ErrAbortHandler)
			}
			h := w.Header()
			for _, name := range answerHeaders {
				h.Del(name)
			}
			for name := range h {
				if strings.HasPrefix(name, http.TrailerPrefix) {
					delete(h, name)
				}
			}
			h.Set("Cache-Control", "no-store")
			p.WriteREST(w, r, err)
		}()
		next.ServeHTTP(rw, r)
	})
}

// answerHeaders describe a handler's own answer; Recover drops them before
// it writes the error in its place.
var answerHeaders = []string{
	"Content-Length", "Content-Encoding", "Content-Type", "Content-Disposition",
	"Content-Language", "Content-Range", "Content-Location", "Accept-Ranges",
	"Transfer-Encoding", "Trailer", "Cache-Control", "Expires", "ETag",
	"Last-Modified", "Age", "Set-Cookie", "Location", "Link", "Refresh",
	"Retry-After",
}
