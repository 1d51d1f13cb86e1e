package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlite"
)

// testServer serves newRouter over a fresh SQLite file with two users,
// Ada and Bob, and returns it with a token for each.
func testServer(t *testing.T) (srv *httptest.Server, adaToken, bobToken string) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	// The lowest bcrypt cost keeps the tests fast; login reads the cost
	// from the hash.
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	ada, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", hash)
	if err != nil {
		t.Fatal(err)
	}
	bob, err := store.Users().CreateUser(ctx, "Bob", "bob@example.com", hash)
	if err != nil {
		t.Fatal(err)
	}

	secret := []byte("a test secret of at least 32 bytes, not for production")
	router, err := newRouter(store.Users(), store.Articles(), secret, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(router)
	t.Cleanup(srv.Close)

	issuer, err := auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if adaToken, err = issuer.Issue(ada); err != nil {
		t.Fatal(err)
	}
	if bobToken, err = issuer.Issue(bob); err != nil {
		t.Fatal(err)
	}
	return srv, adaToken, bobToken
}

type response struct {
	status int
	header http.Header
	body   string
}

// send sends one request; headers are name, value pairs.
func send(t *testing.T, method, url, body string, headers ...string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"`)

// check compares the status, the body (timestamps read "<time>") and the
// headers given as name, value pairs.
func (r response) check(t *testing.T, wantStatus int, wantBody string, headers ...string) {
	t.Helper()
	if r.status != wantStatus {
		t.Errorf("status: got %d, want %d (body %s)", r.status, wantStatus, r.body)
	}
	if got := timestamps.ReplaceAllString(r.body, `"<time>"`); got != wantBody {
		t.Errorf("body:\n got %s\nwant %s", got, wantBody)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if got := r.header.Get(headers[i]); got != headers[i+1] {
			t.Errorf("header %s: got %q, want %q", headers[i], got, headers[i+1])
		}
	}
}

func TestArticles(t *testing.T) {
	srv, adaToken, bobToken := testServer(t)
	collection := srv.URL + "/api/articles"
	asAda := []string{"Content-Type", "application/json", "Authorization", "Bearer " + adaToken}
	asBob := []string{"Content-Type", "application/json", "Authorization", "Bearer " + bobToken}

	send(t, http.MethodPost, collection, `{"title":"Hello","body":"World"}`, "Content-Type", "application/json").check(t,
		http.StatusUnauthorized, `{"message":"Unauthenticated."}`, "WWW-Authenticate", "Bearer")
	send(t, http.MethodPost, collection, `{"title":"Hello","body":"World"}`,
		"Content-Type", "application/json", "Authorization", "Bearer not.a.token").check(t,
		http.StatusUnauthorized, `{"message":"Unauthenticated."}`, "WWW-Authenticate", "Bearer")
	send(t, http.MethodPost, collection, `{"body":"World"}`, asAda...).check(t, http.StatusUnprocessableEntity,
		`{"message":"The title field is required.","errors":{"title":["The title field is required."]}}`)

	r := send(t, http.MethodPost, collection, `{"title":"Hello","body":"World","published":true}`, asAda...)
	var created struct{ Data struct{ ID int64 } }
	if err := json.Unmarshal([]byte(r.body), &created); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	id := created.Data.ID
	article := fmt.Sprintf(`{"id":%d,"user_id":1,"title":"Hello","body":"World","published":true,"created_at":"<time>","updated_at":"<time>","author":{"id":1,"name":"Ada"}}`, id)
	one := fmt.Sprintf("%s/%d", collection, id)
	r.check(t, http.StatusCreated, `{"data":`+article+`}`, "Location", one)

	send(t, http.MethodGet, one, "").check(t, http.StatusOK, `{"data":`+article+`}`)
	send(t, http.MethodGet, collection, "").check(t, http.StatusOK, `{"data":[`+article+`],`+
		`"links":{"first":"`+collection+`?page=1&per_page=15","last":"`+collection+`?page=1&per_page=15","prev":null,"next":null},`+
		`"meta":{"current_page":1,"from":1,"last_page":1,"path":"`+collection+`","per_page":15,"to":1,"total":1}}`)
	send(t, http.MethodGet, collection+"/abc", "").check(t, http.StatusNotFound, `{"message":"Not found."}`)

	send(t, http.MethodDelete, one, "").check(t, http.StatusUnauthorized, `{"message":"Unauthenticated."}`)
	send(t, http.MethodDelete, one, "", asBob...).check(t, http.StatusForbidden, `{"message":"You can only delete your own articles."}`)
	send(t, http.MethodDelete, one, "", asAda...).check(t, http.StatusNoContent, "")
	send(t, http.MethodGet, one, "").check(t, http.StatusNotFound, `{"message":"Not found."}`)
	send(t, http.MethodDelete, one, "", asAda...).check(t, http.StatusNotFound, `{"message":"Not found."}`)
}

func TestGraphQL(t *testing.T) {
	srv, adaToken, _ := testServer(t)
	for _, title := range []string{"First", "Second"} {
		r := send(t, http.MethodPost, srv.URL+"/api/articles", `{"title":"`+title+`","body":"Text","published":true}`,
			"Content-Type", "application/json", "Authorization", "Bearer "+adaToken)
		if r.status != http.StatusCreated {
			t.Fatalf("creating %q: %d %s", title, r.status, r.body)
		}
	}
	graphqlURL := srv.URL + "/api/graphql"

	tests := []struct {
		name       string
		token      string
		query      string
		wantStatus int
		wantBody   string
	}{
		{name: "articles", query: `{ articles { id title author { name } } }`, wantStatus: http.StatusOK,
			wantBody: `{"data":{"articles":[{"id":"2","title":"Second","author":{"name":"Ada"}},{"id":"1","title":"First","author":{"name":"Ada"}}]}}`},
		{name: "first", query: `{ articles(first: 1) { title } }`, wantStatus: http.StatusOK,
			wantBody: `{"data":{"articles":[{"title":"Second"}]}}`},
		{name: "first zero", query: `{ articles(first: 0) { title } }`, wantStatus: http.StatusOK,
			wantBody: `{"data":{"articles":[]}}`},
		{name: "me without a token", query: `{ me }`, wantStatus: http.StatusOK,
			wantBody: `{"data":{"me":null}}`},
		{name: "me with a token", token: adaToken, query: `{ me }`, wantStatus: http.StatusOK,
			wantBody: `{"data":{"me":"1"}}`},
		{name: "bad token", token: "not.a.token", query: `{ me }`, wantStatus: http.StatusUnauthorized,
			wantBody: `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`},
		{name: "unknown field", query: `{ nope }`, wantStatus: http.StatusBadRequest,
			wantBody: `{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := json.Marshal(map[string]string{"query": tt.query})
			if err != nil {
				t.Fatal(err)
			}
			headers := []string{"Content-Type", "application/json"}
			if tt.token != "" {
				headers = append(headers, "Authorization", "Bearer "+tt.token)
			}
			send(t, http.MethodPost, graphqlURL, string(body), headers...).check(t, tt.wantStatus, tt.wantBody,
				"Cache-Control", "no-store")
		})
	}
	t.Run("GET", func(t *testing.T) {
		send(t, http.MethodGet, graphqlURL+"?query=%7B+articles%28first%3A+1%29+%7B+title+%7D+%7D", "").check(t,
			http.StatusOK, `{"data":{"articles":[{"title":"Second"}]}}`)
	})
}

func TestLogin(t *testing.T) {
	srv, _, _ := testServer(t)
	login := func(body string) response {
		return send(t, http.MethodPost, srv.URL+"/api/auth/login", body, "Content-Type", "application/json")
	}
	r := login(`{"email":"ada@example.com","password":"correct horse"}`)
	var got struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal([]byte(r.body), &got); err != nil || got.AccessToken == "" {
		t.Fatalf("no access_token in %s (%v)", r.body, err)
	}
	r.body = strings.Replace(r.body, got.AccessToken, "<token>", 1)
	r.check(t, http.StatusOK, `{"access_token":"<token>","token_type":"bearer","expires_in":3600}`)

	// The token works on the GraphQL endpoint of the same router.
	send(t, http.MethodPost, srv.URL+"/api/graphql", `{"query":"{ me }"}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+got.AccessToken).check(t,
		http.StatusOK, `{"data":{"me":"1"}}`)

	login(`{"email":"ada@example.com","password":"wrong"}`).check(t, http.StatusUnauthorized, `{"message":"Invalid credentials."}`)
	send(t, http.MethodGet, srv.URL+"/api/auth/login", "").check(t, http.StatusMethodNotAllowed,
		`{"message":"Method not allowed."}`, "Allow", "POST")
}

func TestNotFound(t *testing.T) {
	srv, _, _ := testServer(t)
	for _, path := range []string{"/", "/nope", "/api/articles/1/extra"} {
		send(t, http.MethodGet, srv.URL+path, "").check(t, http.StatusNotFound, `{"message":"Not found."}`,
			"Content-Type", "application/json")
	}
}
