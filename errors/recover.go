package errors

import (
	"net/http"
	"strings"
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
		rw := &startedWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			err := Recovered(v)
			if rw.started {
				p.REST(r.Context(), err) // logs it; the answer is already under way
				if rw.wrote == 0 && (rw.status == http.StatusNoContent || rw.status == http.StatusNotModified || r.Method == http.MethodHead) {
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

// startedWriter records whether a response has begun, with which status,
// and how many body bytes went out.
type startedWriter struct {
	http.ResponseWriter
	started bool
	status  int
	wrote   int64
}

func (w *startedWriter) WriteHeader(code int) {
	// 1xx answers other than 101 are informational: the final one is
	// still to come.
	if !w.started && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.started, w.status = true, code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *startedWriter) Write(b []byte) (int, error) {
	if !w.started {
		w.started, w.status = true, http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.wrote += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher.
func (w *startedWriter) Flush() { _ = w.FlushError() }

// FlushError is what http.ResponseController.Flush calls. A flush the
// wrapped writer cannot do sends nothing, and is reported as such.
func (w *startedWriter) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	if err == nil && !w.started {
		w.started, w.status = true, http.StatusOK
	}
	return err
}
