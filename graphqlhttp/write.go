package graphqlhttp

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
)

const (
	contentJSON     = "application/json"
	contentResponse = "application/graphql-response+json"
)

// Header values set on every response, shared to save allocations; they
// are never modified.
var (
	headerJSON     = []string{contentJSON + "; charset=utf-8"}
	headerResponse = []string{contentResponse + "; charset=utf-8"}
	headerNoStore  = []string{"no-store"}
)

// write sends a JSON answer, the concatenation of parts, with its status
// and headers.
func (h *Handler) write(w http.ResponseWriter, r *http.Request, status int, parts ...[]byte) {
	if tr := h.traceOf(r.Context()); tr != nil {
		tr.info.Status = status
		defer tr.phase(graphql.PhaseWrite, time.Now())
	}
	hdr := w.Header()
	if responseType(r.Header.Get("Accept")) == contentResponse {
		hdr["Content-Type"] = headerResponse
	} else {
		hdr["Content-Type"] = headerJSON
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	hdr.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(status)
	if h.stall > 0 && n >= inPlaceBytes {
		h.writeWatched(w, parts)
		return
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return // the client went away
		}
	}
}

// stallChunk is how much of a large answer a client must take within
// Config.StallTimeout.
const stallChunk = 64 << 10

// writeWatched writes parts stallChunk bytes at a time, and cuts the
// client off when it takes none of them for h.stall: the connection's
// write deadline is then set to now, which ends the write under way (and
// net/http closes the connection), so that a client that does not read
// holds the answer, and its share of the response budget, no longer. The
// watchdog only ever brings the deadline forward: the server's
// WriteTimeout is never lengthened. A writer that cannot set deadlines (a
// wrapper without Unwrap) is not cut off.
func (h *Handler) writeWatched(w http.ResponseWriter, parts [][]byte) {
	wd := &watchdog{rc: http.NewResponseController(w)}
	wd.timer = time.AfterFunc(h.stall, wd.cut)
	defer wd.stop()
	for _, p := range parts {
		for len(p) > 0 {
			n := min(len(p), stallChunk)
			if _, err := w.Write(p[:n]); err != nil {
				return // cut off, or the client went away
			}
			p = p[n:]
			wd.timer.Reset(h.stall)
		}
	}
}

// watchdog cuts a stalled client off (see writeWatched).
type watchdog struct {
	rc    *http.ResponseController
	timer *time.Timer
	mu    sync.Mutex
	done  bool // the handler has written: the writer is no longer its
}

func (wd *watchdog) cut() {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if !wd.done {
		_ = wd.rc.SetWriteDeadline(time.Now()) // http.ErrNotSupported: not watched
	}
}

func (wd *watchdog) stop() {
	wd.timer.Stop()
	wd.mu.Lock()
	wd.done = true
	wd.mu.Unlock()
}

// responseType picks the media type of the response: the GraphQL response
// type when the client accepts it at least as much as application/json.
func responseType(accept string) string {
	if accept == "" || accept == "*/*" || accept == contentJSON {
		return contentJSON
	}
	accept = strings.ToLower(accept)
	if !strings.Contains(accept, contentResponse) {
		return contentJSON
	}
	qResponse, qJSON := -1.0, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, ps, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := ps["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case contentResponse:
			qResponse = max(qResponse, q)
		case contentJSON:
			qJSON = max(qJSON, q)
		}
	}
	if qResponse > 0 && qResponse >= qJSON {
		return contentResponse
	}
	return contentJSON
}
