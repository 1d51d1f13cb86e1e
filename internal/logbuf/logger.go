package logbuf

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// Logger returns a logger that writes one JSON object per line to w, at
// every level from debug up, in the shape the kit's tests read: the level
// in lower case first ("info", "error"), then the attributes in the order
// they were given, then the message under "message", then the request id
// ("request_id") when the line has one, so that a line reads the same with
// or without it. No time is written, so a line is the same from run to
// run. Durations are written in nanoseconds, errors as their text, groups
// as keys joined with dots.
func Logger(w io.Writer) *slog.Logger {
	return slog.New(&handler{mu: new(sync.Mutex), w: w})
}

// handler is the slog.Handler of [Logger].
type handler struct {
	mu     *sync.Mutex // shared by the handlers derived with With…
	w      io.Writer
	prefix string      // the open groups, each followed by a dot
	attrs  []slog.Attr // from WithAttrs, keys already prefixed
}

func (h *handler) Enabled(context.Context, slog.Level) bool { return true }

func (h *handler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(`{"level":`)
	writeJSON(&b, strings.ToLower(r.Level.String()))
	var id *slog.Value
	add := func(prefix string, a slog.Attr) {
		if prefix == "" && a.Key == "request_id" {
			v := a.Value
			id = &v
			return
		}
		appendAttr(&b, prefix, a)
	}
	for _, a := range h.attrs {
		add("", a)
	}
	r.Attrs(func(a slog.Attr) bool {
		add(h.prefix, a)
		return true
	})
	b.WriteString(`,"message":`)
	writeJSON(&b, r.Message)
	if id != nil {
		b.WriteString(`,"request_id":`)
		writeJSON(&b, id.Resolve().Any())
	}
	b.WriteString("}\n")
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := *h
	h2.attrs = append([]slog.Attr(nil), h.attrs...)
	for _, a := range attrs {
		a.Key = h.prefix + a.Key
		h2.attrs = append(h2.attrs, a)
	}
	return &h2
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.prefix = h.prefix + name + "."
	return &h2
}

// appendAttr writes ,"key":value for a, a group as its members.
func appendAttr(b *strings.Builder, prefix string, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, g := range v.Group() {
			appendAttr(b, prefix, g)
		}
		return
	}
	if a.Key == "" {
		return
	}
	b.WriteByte(',')
	writeJSON(b, prefix+a.Key)
	b.WriteByte(':')
	switch v.Kind() {
	case slog.KindDuration:
		writeJSON(b, v.Duration().Nanoseconds())
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			writeJSON(b, err.Error())
			return
		}
		writeJSON(b, v.Any())
	default:
		writeJSON(b, v.Any())
	}
}

// writeJSON writes v as JSON, without escaping HTML characters.
func writeJSON(b *strings.Builder, v any) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.WriteString(`"!` + err.Error() + `"`)
		return
	}
	b.WriteString(strings.TrimSuffix(buf.String(), "\n"))
}
