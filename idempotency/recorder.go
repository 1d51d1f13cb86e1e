package idempotency

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gqlkit/gqlkit/internal/stall"
)

// recorder is the ResponseWriter a claimed request's handler writes to.
// What becomes of the answer is decided when the handler begins it (its
// first WriteHeader, Write or Flush):
//
//   - no write joined the claim, or the status is 5xx: the answer will not
//     be recorded, so the claim is released there and then (its writes
//     undone, its key freed) and the answer goes straight to the client.
//     Unwrap gives http.ResponseController the client's writer, so that
//     the handler's own bounds (a response budget's share held while the
//     client reads, a stall cut-off) work as without a key;
//   - otherwise the answer is held, up to MaxRecordBytes, until the claim
//     commits it, then sent. Past MaxRecordBytes the buffer is dropped,
//     the handler's further writes fail, and the request is refused
//     (422) once the handler returns.
type recorder struct {
	m            *middleware
	w            http.ResponseWriter
	r            *http.Request
	claim        Claim
	stopRenewing func()

	header   http.Header // the handler's, until the answer passes through
	mode     recordMode
	released bool
	status   int
	body     bytes.Buffer
}

// recordMode is what the recorder does with the answer.
type recordMode uint8

const (
	modeUndecided recordMode = iota // the handler has not begun its answer
	modePassing                     // straight to the client; claim released
	modeRecording                   // held in body until committed
	modeTooLarge                    // over MaxRecordBytes: refused
)

// errNotRecordable is what a handler's Write returns once its answer is
// over MaxRecordBytes.
var errNotRecordable = errors.New("idempotency: the answer is over Config.MaxRecordBytes and will be refused; its writes are undone")

func (rec *recorder) Header() http.Header {
	if rec.mode == modePassing {
		return rec.w.Header()
	}
	return rec.header
}

func (rec *recorder) WriteHeader(status int) {
	switch {
	case rec.mode == modePassing:
		rec.w.WriteHeader(status)
	case rec.mode == modeUndecided && status >= 200:
		rec.begin(status)
	}
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.mode == modeUndecided {
		rec.begin(http.StatusOK)
	}
	switch rec.mode {
	case modePassing:
		return rec.w.Write(p)
	case modeRecording:
		if rec.body.Len()+len(p) <= rec.m.cfg.MaxRecordBytes {
			return rec.body.Write(p)
		}
		rec.refuse()
	}
	return 0, errNotRecordable
}

// FlushError flushes an answer that passes through; one that is held is
// sent once recorded. It makes http.ResponseController's Flush stop here
// rather than at the client's writer, which would send a held answer's
// head.
func (rec *recorder) FlushError() error {
	if rec.mode == modeUndecided {
		rec.begin(http.StatusOK)
	}
	if rec.mode == modePassing {
		return http.NewResponseController(rec.w).Flush()
	}
	return nil
}

// Unwrap returns the client's writer, for http.ResponseController.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.w }

// begin decides what becomes of an answer of status (see recorder).
func (rec *recorder) begin(status int) {
	rec.status = status
	if status < 500 && rec.claim.Joined() {
		rec.mode = modeRecording
		if n, err := strconv.ParseInt(rec.header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			if n > int64(rec.m.cfg.MaxRecordBytes) {
				rec.refuse()
			} else {
				rec.body.Grow(int(n))
			}
		}
		return
	}
	// Nothing to replay: a failure undoes what was written, and a request
	// that wrote nothing (a query, a refusal) may run again. The key is
	// freed before the answer goes out, so that a retry that follows it
	// runs at once.
	rec.release()
	rec.mode = modePassing
	h := rec.w.Header()
	for name, values := range rec.header {
		h[name] = values
	}
	rec.w.WriteHeader(status)
}

// refuse drops an answer over MaxRecordBytes.
func (rec *recorder) refuse() {
	rec.mode = modeTooLarge
	rec.body = bytes.Buffer{}
}

// release ends the claim without recording, once.
func (rec *recorder) release() {
	if rec.released {
		return
	}
	rec.released = true
	rec.stopRenewing()
	rec.m.release(rec.r, rec.claim)
}

// finish ends the request once the handler has returned: it records and
// sends a held answer, or refuses one too large.
func (rec *recorder) finish(fp []byte) {
	if rec.mode == modeUndecided {
		rec.begin(http.StatusOK)
	}
	switch rec.mode {
	case modePassing:
		return
	case modeTooLarge:
		rec.release()
		rec.m.cfg.WriteError(rec.w, rec.r, errTooLarge)
		return
	}
	rec.stopRenewing()
	resp := Response{Fingerprint: fp, Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}
	if err := rec.claim.Commit(rec.r.Context(), resp); err != nil {
		rec.release()
		if errors.Is(err, ErrClaimLost) {
			rec.w.Header().Set("Retry-After", "1")
			rec.m.cfg.WriteError(rec.w, rec.r, err)
			return
		}
		rec.m.fail(rec.w, rec.r, fmt.Errorf("idempotency: recording an answer: %w", err))
		return
	}
	rec.m.send(rec.w, &resp, false)
}

// send writes a recorded answer to w, cutting off a client that stops
// reading it (Config.StallTimeout). The answer's header is w's from then
// on.
func (m *middleware) send(w http.ResponseWriter, resp *Response, replayed bool) {
	h := w.Header()
	for name, values := range resp.Header {
		h[name] = values
	}
	if replayed {
		h.Set(ReplayedHeader, "true")
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	_ = stall.Write(w, m.stall, resp.Body) // an error: the client went away, or was cut off
}
