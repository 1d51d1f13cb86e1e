package graphqlhttp

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
)

// SDL returns a handler of its own that serves the endpoint's schema in
// the Schema Definition Language ([graphql.Schema.SDL], the text
// graphql-js's printSchema prints for the schema's introspection), for
// clients and tools that read a schema file: mount it where the
// application likes, such as
//
//	mux.Handle("GET /api/schema.graphql", h.SDL())
//
// It follows the endpoint's introspection rule, request by request:
// Config.AllowIntrospection when set (mount the handler behind the same
// authentication middleware as the endpoint, so that the rule sees the
// same user), Config.Introspection otherwise. Where introspection is
// refused the handler exposes nothing: it answers 404 NOT_FOUND, in the
// endpoint's error shape, as for a path that does not exist.
//
// An allowed GET or HEAD gets 200, Content-Type text/plain; charset=utf-8,
// the SDL with a final newline, and an ETag (a hash of the text), so that
// a client that sends If-None-Match gets 304 while the schema is the same;
// Cache-Control: no-cache makes caches ask every time. Other methods get
// 405 with Allow: GET, HEAD. The text is printed once, when SDL is called.
func (h *Handler) SDL() http.Handler {
	text := h.schema.SDL() + "\n"
	sum := sha256.Sum256([]byte(text))
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header()["Cache-Control"] = headerNoStore
			h.answer(r.Context(), w, r, &failure{status: http.StatusMethodNotAllowed, allow: "GET, HEAD",
				errs: gqlerror.List{simpleError(errcode.CodeBadUserInput, "The schema is read with GET or HEAD.")}})
			return
		}
		if !h.introspection(r.Context()) {
			w.Header()["Cache-Control"] = headerNoStore
			h.answer(r.Context(), w, r, fail(http.StatusNotFound, errcode.CodeNotFound, errcode.MessageNotFound))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(text))
	})
}
