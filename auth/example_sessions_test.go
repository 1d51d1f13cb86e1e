package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlite"
)

// Sessions on a SQLite store: login begins a session and sets its refresh
// cookie, refresh rotates it, and a logout with the login's access token
// ends the session: its refresh tokens and every access token of it.
func ExampleNewRefresher() {
	dir, err := os.MkdirTemp("", "sessions")
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
	hash, _ := auth.HashPassword("correct horse", bcrypt.MinCost)
	if _, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", hash); err != nil {
		log.Fatal(err)
	}

	cfg := auth.Config{Tokens: store.Tokens()}
	issuer, _ := auth.NewIssuer(exampleSecret, cfg)
	verifier, _ := auth.NewVerifier(auth.HMAC(exampleSecret), cfg)
	refresher, err := auth.NewRefresher(issuer, auth.RefreshConfig{Store: store.Tokens()})
	if err != nil {
		log.Fatal(err)
	}
	login, _ := auth.NewLogin(store.Users(), issuer, auth.LoginConfig{Cost: bcrypt.MinCost, Refresh: refresher})
	logout, _ := auth.NewLogout(verifier, auth.LogoutConfig{Refresh: refresher})
	mux := http.NewServeMux()
	mux.Handle("/api/auth/login", login)
	mux.Handle("/api/auth/refresh", refresher)
	mux.Handle("/api/auth/logout", logout)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	post := func(path, body string, header http.Header) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		read, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(read))
		return resp
	}
	cookie := func(resp *http.Response) string {
		for _, c := range resp.Cookies() {
			if c.Name == auth.RefreshCookie {
				return c.Name + "=" + c.Value
			}
		}
		return ""
	}

	resp := post("/api/auth/login", `{"email":"ada@example.com","password":"correct horse"}`, http.Header{"Content-Type": {"application/json"}})
	var body struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	first := cookie(resp)
	fmt.Println("login:", resp.StatusCode)
	resp = post("/api/auth/refresh", "", http.Header{"Cookie": {first}})
	second := cookie(resp)
	fmt.Println("refresh:", resp.StatusCode, second != first)
	resp = post("/api/auth/logout", "", http.Header{"Authorization": {"Bearer " + body.AccessToken}})
	fmt.Println("logout:", resp.StatusCode)
	resp = post("/api/auth/refresh", "", http.Header{"Cookie": {second}})
	fmt.Println("refresh after logout:", resp.StatusCode)
	_, err = verifier.Verify(ctx, body.AccessToken)
	fmt.Println(errors.Is(err, auth.ErrRevoked))
	// Output:
	// login: 200
	// refresh: 200 true
	// logout: 204
	// refresh after logout: 401
	// true
}
