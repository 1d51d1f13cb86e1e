package errors

import "net/http"

// Recover is middleware that turns a panic in next into a masked 500
// {"message":"Internal server error."}, logged once with its stack, so that
// a bug in one handler costs one request and never the connection. The
// headers next had set that describe its own answer (Content-Length,
// Content-Encoding, caching, cookies, Location…) are dropped first; others,
// such as X-Request-Id, stay. A panic with http.ErrAbortHandler is left to
// net/http, which uses it to abort a response on purpose.
//
// When next had already started its answer (a final status, body bytes or
// a flush; 1xx informational answers do not count), nothing can replace
// it: the panic is logged and the response aborted with
// http.ErrAbortHandler, so that the client sees a broken response instead
// of a short one that looks complete.
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
				panic(http.ErrAbortHandler)
			}
			h := w.Header()
			for _, name := range answerHeaders {
				h.Del(name)
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
	"Content-Language", "Content-Range", "Transfer-Encoding", "Trailer",
	"Cache-Control", "Expires", "ETag", "Last-Modified", "Age",
	"Set-Cookie", "Location", "Refresh", "Retry-After",
}

// startedWriter records whether a response has begun.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(code int) {
	// 1xx answers other than 101 are informational: the final one is
	// still to come.
	if code >= 200 || code == http.StatusSwitchingProtocols {
		w.started = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *startedWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes flushes through.
func (w *startedWriter) Flush() {
	w.started = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
