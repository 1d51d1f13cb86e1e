// Package respwriter holds the kit's one http.ResponseWriter wrapper: it
// records what a handler sent (the final status, the body bytes, whether
// the answer has started) and keeps every optional interface of the
// writer it wraps. reqlog and the errors package's Recover share it.
package respwriter

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// Recorder is the http.ResponseWriter that inner handlers get: it records
// the final status and the body size, and passes everything else through.
// Flush, Hijack and ReadFrom are always present and defer to the wrapped
// writer through http.ResponseController (Hijack reports
// http.ErrNotSupported where the wrapped writer cannot hijack, as on
// HTTP/2); Unwrap lets http.ResponseController reach the rest.
type Recorder struct {
	http.ResponseWriter
	// Status is the first final (non-1xx) status sent; 0 until one is.
	// A Write, a ReadFrom that copied bytes or a flush that happened
	// before any WriteHeader sends 200.
	Status int
	// Bytes counts the body bytes written.
	Bytes int64
	// Hijacked reports that the connection was taken over.
	Hijacked bool
}

// Started reports whether the answer has begun: a final status, body
// bytes or a flush went out (1xx informational answers do not count), or
// the connection was hijacked.
func (w *Recorder) Started() bool { return w.Status != 0 || w.Hijacked }

func (w *Recorder) WriteHeader(code int) {
	// 1xx responses other than 101 are informational: net/http sends
	// them and waits for the final status.
	if w.Status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Recorder) Write(p []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.Bytes += int64(n)
	return n, err
}

// ReadFrom keeps io.Copy into the response on the wrapped writer's fast
// path (sendfile for files on HTTP/1).
func (w *Recorder) ReadFrom(src io.Reader) (int64, error) {
	n, err := io.Copy(w.ResponseWriter, src)
	// Nothing copied, nothing sent: the handler may still choose a status.
	if n > 0 && w.Status == 0 {
		w.Status = http.StatusOK
	}
	w.Bytes += n
	return n, err
}

// Flush implements http.Flusher.
func (w *Recorder) Flush() { _ = w.FlushError() }

// FlushError is what http.ResponseController.Flush calls.
func (w *Recorder) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	// A flush that happened sent the header (200 unless one was set); one
	// the wrapped writer cannot do sent nothing.
	if err == nil && w.Status == 0 {
		w.Status = http.StatusOK
	}
	return err
}

// Hijack implements http.Hijacker.
func (w *Recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.Hijacked = true
	}
	return conn, rw, err
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w *Recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var (
	_ http.Flusher  = (*Recorder)(nil)
	_ http.Hijacker = (*Recorder)(nil)
	_ io.ReaderFrom = (*Recorder)(nil)
)
