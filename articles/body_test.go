package articles_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/httpjson/oversize"
	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/gqlkit/gqlkit/reqlog"
)

// TestCreateNotUTF8LeavesListUnchanged checks that a create body that is
// not UTF-8, wherever the bad bytes are and however it is sent, is a 400
// that writes nothing: the list reads the same before and after.
func TestCreateNotUTF8LeavesListUnchanged(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		created := e.do(request{method: "POST", path: "/api/articles", token: ada, body: `{"title":"Kept","body":"b","published":true}`})
		if created.status != http.StatusCreated {
			t.Fatalf("create: %d %s", created.status, created.body)
		}
		before := e.do(request{method: "GET", path: "/api/articles"})
		for _, tt := range []struct {
			name, body string
			chunked    bool
		}{
			{name: "0xff in the title", body: "{\"title\":\"t\xff\",\"body\":\"b\",\"published\":true}"},
			{name: "a surrogate in the body", body: "{\"title\":\"t\",\"body\":\"\xed\xa0\x80\",\"published\":true}"},
			{name: "an overlong slash", body: "{\"title\":\"\xc0\xaf\",\"body\":\"b\",\"published\":true}"},
			{name: "a sequence cut short", body: "{\"title\":\"t\",\"body\":\"\xe2\x82\",\"published\":true}"},
			{name: "0xff in a member name", body: "{\"title\":\"t\",\"body\":\"b\",\"published\":true,\"x\xff\":1}"},
			{name: "Latin-1 text", body: "{\"title\":\"caf\xe9\",\"body\":\"b\",\"published\":true}"},
			{name: "chunked", body: "{\"title\":\"t\xff\",\"body\":\"b\",\"published\":true}", chunked: true},
		} {
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: tt.body, chunked: tt.chunked})
			expect(t, tt.name, got, http.StatusBadRequest, `{"message":"The request body is not valid UTF-8."}`)
		}
		after := e.do(request{method: "GET", path: "/api/articles"})
		if after.status != http.StatusOK || after.body != before.body {
			t.Errorf("the list changed:\nbefore %d %s\nafter  %d %s", before.status, before.body, after.status, after.body)
		}
	})
}

// TestCreateOversizedBodyAnswered checks that a create body over the cap
// gets its 413 through to a client that sends it whole without waiting
// for "100 Continue", whether it asks for Connection: close or not, and
// that the connection ends gracefully instead of being reset with the
// body unread. The handler is mounted as doc.go says, behind reqlog, whose
// ResponseWriter wrapper must not hide the refusal from net/http.
func TestCreateOversizedBodyAnswered(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: bodies of megabytes over a real connection")
	s, _ := sqliteStore(t)
	nop := slog.New(slog.DiscardHandler)
	h, err := articles.NewHandler(s, articles.Config{Presenter: apierror.Presenter{Logger: nop}})
	if err != nil {
		t.Fatalf("NewHandler: %v", err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/articles", verifier.Optional(h))
	srv := httptest.NewServer(reqlog.Handler(nop)(mux))
	t.Cleanup(srv.Close)
	e := &env{t: t, store: s}
	if e.issuer, err = auth.NewIssuer(secret, auth.Config{}); err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	_, token := e.user("Ada")

	addr := srv.Listener.Addr().String()
	const tooLarge = `{"message":"The request body is too large."}`
	for _, size := range []int{1<<20 + 50<<10, 3 << 20} {
		for _, header := range [][]string{nil, {"Connection: close"}} {
			for _, chunked := range []bool{false, true} {
				req := oversize.Request{Path: "/api/articles", Header: append([]string{"Authorization: Bearer " + token}, header...), Size: size, Chunked: chunked}
				oversize.Check(t, addr, req, 413, tooLarge)
			}
		}
	}
	e.srv = srv
	if got := e.do(request{method: "GET", path: "/api/articles"}); got.status != http.StatusOK || !strings.Contains(got.body, `"total":0}`) {
		t.Errorf("after refused creates the list is %d %s, want total 0", got.status, got.body)
	}
}
