package errors

import "net/http"

// Recover is middleware that turns a panic in next into a masked 500
// {"message":"Internal server error."}, logged once with its stack, so that
// a bug in one handler costs one request and never the connection. A
// panic with http.ErrAbortHandler is left to net/http, which uses it to
// abort a response on purpose. When next had already started its answer,
// nothing more can be written; the panic is still logged.
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
				return
			}
			p.WriteREST(w, r, err)
		}()
		next.ServeHTTP(rw, r)
	})
}

// startedWriter records whether a response has begun.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(code int) {
	w.started = true
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
