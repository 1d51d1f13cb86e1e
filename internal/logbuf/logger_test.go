package logbuf_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/logbuf"
)

func TestLoggerShape(t *testing.T) {
	var buf bytes.Buffer
	l := logbuf.Logger(&buf)
	l.With("svc", "x").WithGroup("g").Info("hello", "request_id", "req-1", "n", 7, "err", errors.New("boom"), "d", time.Millisecond)
	want := `{"level":"info","svc":"x","g.request_id":"req-1","g.n":7,"g.err":"boom","g.d":1000000,"message":"hello"}` + "\n"
	if buf.String() != want {
		t.Errorf("line\n got %s\nwant %s", buf.String(), want)
	}
	buf.Reset()
	l.Error("top", "request_id", "req-2", "a", "<b>")
	if want := `{"level":"error","a":"<b>","message":"top","request_id":"req-2"}` + "\n"; buf.String() != want {
		t.Errorf("line\n got %s\nwant %s", buf.String(), want)
	}
}
