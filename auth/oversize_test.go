package auth_test

import (
	"log/slog"
	"net/http/httptest"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/httpjson/oversize"
	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/gqlkit/gqlkit/reqlog"
)

// TestLoginOversizedBodyAnswered checks that a login body over the cap gets
// its 413 through to a client that sends it whole without waiting for
// "100 Continue", whether it asks for Connection: close or not, and that
// the connection ends gracefully instead of being reset with the body
// unread. The login is mounted behind reqlog, whose ResponseWriter wrapper
// must not hide the refusal from net/http.
func TestLoginOversizedBodyAnswered(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: bodies of megabytes over a real connection")
	login, err := auth.NewLogin(newUsers(t), newIssuer(t), auth.LoginConfig{Cost: bcrypt.MinCost})
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	srv := httptest.NewServer(reqlog.Handler(slog.New(slog.DiscardHandler))(login))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	const tooLarge = `{"message":"The request body is too large."}`
	for _, size := range []int{1<<20 + 50<<10, 3 << 20} {
		for _, header := range [][]string{nil, {"Connection: close"}} {
			for _, chunked := range []bool{false, true} {
				req := oversize.Request{Path: "/api/auth/login", Header: header, Size: size, Chunked: chunked}
				oversize.Check(t, addr, req, 413, tooLarge)
			}
		}
	}
}
