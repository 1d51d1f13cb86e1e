package graphqlhttp

import (
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/stall"
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
	// A client that takes none of a large answer for h.stall is cut off,
	// and the answer's share of the budget goes back (see Config.StallTimeout).
	if err := stall.Write(w, h.stall, parts...); err != nil {
		// The client went away, or was cut off: not a fault of the service.
		ctxlog.Log(r.Context(), h.presenter.Logger, slog.LevelInfo, "graphql: the client did not take its answer", ctxlog.Err(err), slog.Int("bytes", n))
	}
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
