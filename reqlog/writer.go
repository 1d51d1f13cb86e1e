package reqlog

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// recorder is the http.ResponseWriter that inner handlers get: it records
// the final status and the body size, and passes everything else through.
// Flush, Hijack and ReadFrom are always present and defer to the wrapped
// writer through http.ResponseController (Hijack reports
// http.ErrNotSupported where the wrapped writer cannot hijack, as on
// HTTP/2); Unwrap lets http.ResponseController reach the rest.
type recorder struct {
	http.ResponseWriter
	status   int   // first final (non-1xx) status; 0 until one is sent
	bytes    int64 // body bytes written
	hijacked bool
}

func (w *recorder) WriteHeader(code int) {
	// 1xx responses other than 101 are informational: net/http sends
	// them and waits for the final status.
	if w.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps io.Copy into the response on the wrapped writer's fast
// path (sendfile for files on HTTP/1).
func (w *recorder) ReadFrom(src io.Reader) (int64, error) {
	n, err := io.Copy(w.ResponseWriter, src)
	// Nothing copied, nothing sent: the handler may still choose a status.
	if n > 0 && w.status == 0 {
		w.status = http.StatusOK
	}
	w.bytes += n
	return n, err
}

// Flush implements http.Flusher.
func (w *recorder) Flush() { _ = w.FlushError() }

// FlushError is what http.ResponseController.Flush calls.
func (w *recorder) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	// A flush that happened sent the header (200 unless one was set); one
	// the wrapped writer cannot do sent nothing.
	if err == nil && w.status == 0 {
		w.status = http.StatusOK
	}
	return err
}

// Hijack implements http.Hijacker.
func (w *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.hijacked = true
	}
	return conn, rw, err
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var (
	_ http.Flusher  = (*recorder)(nil)
	_ http.Hijacker = (*recorder)(nil)
	_ io.ReaderFrom = (*recorder)(nil)
)
