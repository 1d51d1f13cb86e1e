package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
)

// exampleSecret stands for at least 32 random bytes from the environment.
var exampleSecret = []byte("example-secret-of-32-bytes-or-more")

// show prints the status, WWW-Authenticate header and body of a response.
func show(resp *http.Response, err error) {
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%d %q %s\n", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
}

// Guard write routes of a stock ServeMux with Required, and read the user id
// in the handler.
func ExampleVerifier_Required() {
	cfg := auth.Config{}
	verifier, err := auth.NewVerifier(auth.HMAC(exampleSecret), cfg)
	if err != nil {
		log.Fatal(err)
	}
	issuer, err := auth.NewIssuer(exampleSecret, cfg)
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.Handle("POST /api/articles", verifier.Required(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _ := auth.UserID(r.Context())
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "created by user %d", id)
	})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	post := func(authorization string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/articles", strings.NewReader("{}"))
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		return http.DefaultClient.Do(req)
	}
	token, err := issuer.Issue(42)
	if err != nil {
		log.Fatal(err)
	}
	show(post(""))
	show(post("Bearer not-a-token"))
	show(post("Bearer " + token))
	// Output:
	// 401 "Bearer" {"message":"Unauthenticated."}
	// 401 "Bearer" {"message":"Unauthenticated."}
	// 201 "" created by user 42
}

// A GraphQL endpoint answers a bad token with its own error shape, and lets
// a request without a token through anonymously.
func ExampleVerifier_Authenticate() {
	verifier, err := auth.NewVerifier(auth.HMAC(exampleSecret), auth.Config{})
	if err != nil {
		log.Fatal(err)
	}
	graphql := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, err := verifier.Authenticate(r)
		switch {
		case err == nil:
			r = r.WithContext(auth.WithToken(r.Context(), token))
		case errors.Is(err, auth.ErrNoToken):
			// anonymous: queries run, mutations are refused later
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("WWW-Authenticate", "Bearer")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`)
			return
		}
		if id, ok := auth.UserID(r.Context()); ok {
			fmt.Fprintf(w, `{"data":{"viewer":%d}}`, id)
			return
		}
		fmt.Fprint(w, `{"data":{"__typename":"Query"}}`)
	})
	srv := httptest.NewServer(graphql)
	defer srv.Close()

	for _, authorization := range []string{"", "Bearer expired.or.forged"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"?query={__typename}", nil)
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		show(http.DefaultClient.Do(req))
	}
	// Output:
	// 200 "" {"data":{"__typename":"Query"}}
	// 401 "Bearer" {"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}
}

// exampleUsers is an in-memory auth.Users.
type exampleUsers map[string]struct {
	id   int64
	hash []byte
}

func (u exampleUsers) PasswordHash(_ context.Context, email string) (int64, []byte, error) {
	user, ok := u[email]
	if !ok {
		return 0, nil, auth.ErrUserNotFound
	}
	return user.id, user.hash, nil
}

// Serve the login endpoint and use the token it returns.
func ExampleLogin() {
	// A real service stores auth.HashPassword's output; the example uses the
	// lowest bcrypt cost to run fast.
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		log.Fatal(err)
	}
	users := exampleUsers{"ada@example.com": {id: 7, hash: hash}}

	cfg := auth.Config{}
	issuer, err := auth.NewIssuer(exampleSecret, cfg)
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(exampleSecret), cfg)
	if err != nil {
		log.Fatal(err)
	}
	login, err := auth.NewLogin(users, issuer, auth.LoginConfig{Cost: bcrypt.MinCost})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/auth/login", login)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, body := range []string{
		`{"email":"ada@example.com","password":"wrong"}`,
		`{"email":"ada@example.com"}`,
		`{"email":"ada@example.com","password":"correct horse"}`,
	} {
		resp, err := http.Post(srv.URL+"/api/auth/login", "application/json", strings.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		var answer struct {
			Message     string `json:"message"`
			AccessToken string `json:"access_token"`
			TokenType   string `json:"token_type"`
			ExpiresIn   int    `json:"expires_in"`
		}
		err = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			fmt.Println(resp.StatusCode, answer.Message)
			continue
		}
		token, err := verifier.Verify(context.Background(), answer.AccessToken)
		fmt.Println(resp.StatusCode, answer.TokenType, answer.ExpiresIn, token.UserID, err)
	}
	// Output:
	// 401 Invalid credentials.
	// 422 The password field is required.
	// 200 bearer 3600 7 <nil>
}

// Issue a token for a user, as a command-line tool would, and check it.
func ExampleIssuer_Issue() {
	cfg := auth.Config{TTL: 15 * time.Minute}
	issuer, err := auth.NewIssuer(exampleSecret, cfg)
	if err != nil {
		log.Fatal(err)
	}
	token, err := issuer.Issue(42)
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(exampleSecret), cfg)
	if err != nil {
		log.Fatal(err)
	}
	verified, err := verifier.Verify(context.Background(), token)
	fmt.Println(strings.Count(token, "."), issuer.TTL(), verified.UserID, err)
	// Output:
	// 2 15m0s 42 <nil>
}

// Throttle logins more strictly than the default: after two failures
// within a minute, an e-mail address must wait before it may try again
// from the same client address, even with the right password; after ten
// within an hour, from any address.
func ExampleLoginLimit() {
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		log.Fatal(err)
	}
	users := exampleUsers{"ada@example.com": {id: 7, hash: hash}}
	issuer, err := auth.NewIssuer(exampleSecret, auth.Config{})
	if err != nil {
		log.Fatal(err)
	}
	login, err := auth.NewLogin(users, issuer, auth.LoginConfig{
		Cost:         bcrypt.MinCost,
		ClientLimit:  auth.LoginLimit{Failures: 2, Window: time.Minute},
		AccountLimit: auth.LoginLimit{Failures: 10, Window: time.Hour},
		// A stopped clock, so that the output is the same on every run.
		Now: func() time.Time { return time.Date(2025, time.March, 4, 12, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(login)
	defer srv.Close()

	for _, password := range []string{"wrong", "guess", "correct horse"} {
		body := `{"email":"ada@example.com","password":"` + password + `"}`
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %q %s\n", resp.StatusCode, resp.Header.Get("Retry-After"), answer)
	}
	// Output:
	// 401 "" {"message":"Invalid credentials."}
	// 401 "" {"message":"Invalid credentials."}
	// 429 "60" {"message":"Too many login attempts. Please try again in 60 seconds."}
}
