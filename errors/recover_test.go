package errors_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	apierror "github.com/gqlkit/gqlkit/errors"
)

func TestRecover(t *testing.T) {
	var logs bytes.Buffer
	logger := zerolog.New(&logs)
	p := apierror.Presenter{Logger: &logger}
	calls := 0
	h := p.Recover(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		switch r.URL.Path {
		case "/boom":
			panic("handler exploded")
		case "/late":
			w.WriteHeader(http.StatusAccepted)
			panic("after the header")
		}
		io.WriteString(w, "fine")
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := get("/boom"); status != 500 || body != `{"message":"Internal server error."}` {
		t.Errorf("GET /boom = %d %s, want 500 masked", status, body)
	}
	if !strings.Contains(logs.String(), `"panic":"handler exploded"`) || !strings.Contains(logs.String(), `"stack":`) {
		t.Errorf("log = %s, want the panic and its stack", logs.String())
	}
	if status, body := get("/next"); status != 200 || body != "fine" {
		t.Errorf("GET /next after a panic = %d %s, want 200 fine", status, body)
	}
	logs.Reset()
	if status, _ := get("/late"); status != http.StatusAccepted {
		t.Errorf("GET /late = %d, want the status already written (202)", status)
	}
	if !strings.Contains(logs.String(), `"panic":"after the header"`) {
		t.Errorf("log = %s, want the late panic logged", logs.String())
	}
	if calls != 3 {
		t.Errorf("handler ran %d times, want 3", calls)
	}
}
