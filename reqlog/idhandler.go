package reqlog

import (
	"context"
	"log/slog"
)

// IDHandler is a [slog.Handler] that adds the request id to the records it
// handles: a record logged with a context that [Handler] gave an id gains
// the attribute [IDKey] ("request_id"), unless it already has one (the
// kit's own lines carry it). Wrap a service's handler in one, and every
// line the service logs with a request's context, through
// [slog.Logger.InfoContext] or [slog.Logger.LogAttrs], carries the id that
// the access line and the kit's lines carry:
//
//	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(os.Stderr, nil)))
//
// Under a group opened with WithGroup the id lands in that group, like the
// record's other attributes. Everything else is the wrapped handler's.
type IDHandler struct {
	next slog.Handler
}

// NewIDHandler returns an [IDHandler] that passes records, with the request
// id added, to next.
func NewIDHandler(next slog.Handler) *IDHandler { return &IDHandler{next: next} }

// Enabled reports whether the wrapped handler takes records at level.
func (h *IDHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle adds the request id of ctx to r, when ctx has one and r has no
// [IDKey] attribute yet, and passes r on.
func (h *IDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := ID(ctx); ok && !hasID(r) {
		r = r.Clone() // the caller's record may share its attributes with others
		r.AddAttrs(slog.String(IDKey, id))
	}
	return h.next.Handle(ctx, r)
}

// hasID reports whether r has a top-level [IDKey] attribute.
func hasID(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == IDKey
		return !found
	})
	return found
}

// WithAttrs returns an IDHandler around the wrapped handler with attrs.
func (h *IDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &IDHandler{next: h.next.WithAttrs(attrs)}
}

// WithGroup returns an IDHandler around the wrapped handler with the group
// name open.
func (h *IDHandler) WithGroup(name string) slog.Handler {
	return &IDHandler{next: h.next.WithGroup(name)}
}
