package auth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlite"
)

// A write checks its token again once the body is in: the token is
// logged out while the client is still sending the body, and the write
// is refused.
func ExampleRecheck() {
	dir, err := os.MkdirTemp("", "recheck")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}

	cfg := auth.Config{Tokens: store.Tokens()}
	issuer, _ := auth.NewIssuer(exampleSecret, cfg)
	verifier, _ := auth.NewVerifier(auth.HMAC(exampleSecret), cfg)
	inHandler := make(chan struct{})
	notes := verifier.Required(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(inHandler)
		body, _ := io.ReadAll(r.Body) // as slowly as the client sends it
		switch err := auth.Recheck(r.Context()); {
		case errors.Is(err, auth.ErrRevoked):
			http.Error(w, "logged out meanwhile", http.StatusUnauthorized)
		case err != nil:
			http.Error(w, "try again later", http.StatusServiceUnavailable)
		default:
			fmt.Fprintf(w, "stored %q", body) // the write
		}
	}))
	srv := httptest.NewServer(notes)
	defer srv.Close()

	token, _ := issuer.Issue(1)
	body, send := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, body)
	req.Header.Set("Authorization", "Bearer "+token)
	answer := make(chan *http.Response)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		answer <- resp
	}()
	fmt.Fprint(send, "a note, ") // the headers passed the middleware
	<-inHandler
	t, _ := verifier.Verify(ctx, token)
	if err := store.Tokens().RevokeToken(ctx, t.ID, t.ExpiresAt); err != nil { // a logout
		log.Fatal(err)
	}
	fmt.Fprint(send, "sent after the logout")
	send.Close()
	resp := <-answer
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("%d %s", resp.StatusCode, text)
	// Output:
	// 401 logged out meanwhile
}
