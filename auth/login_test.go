package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/logbuf"
)

// memUsers is an in-memory auth.Users.
type memUsers struct {
	mu     sync.Mutex
	users  map[string]memUser // by e-mail address
	err    error              // returned by every lookup when set
	emails []string           // addresses looked up
}

type memUser struct {
	id   int64
	hash []byte
}

func (m *memUsers) PasswordHash(_ context.Context, email string) (int64, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.emails = append(m.emails, email)
	if m.err != nil {
		return 0, nil, m.err
	}
	u, ok := m.users[email]
	if !ok {
		return 0, nil, fmt.Errorf("looking up %q: %w", email, auth.ErrUserNotFound)
	}
	return u.id, u.hash, nil
}

func (m *memUsers) lookedUp() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.emails...)
}

func minCostHash(t *testing.T, password string) []byte {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatalf("bcrypt: %v", err)
	}
	return hash
}

func newUsers(t *testing.T) *memUsers {
	t.Helper()
	return &memUsers{users: map[string]memUser{
		"ada@example.com":    {id: 7, hash: minCostHash(t, "correct horse")},
		"spaces@example.com": {id: 8, hash: minCostHash(t, " padded ")},
		"broken@example.com": {id: 9, hash: []byte("not a bcrypt hash")},
		"nobody@example.com": {id: 0, hash: minCostHash(t, "correct horse")},
		"nohash@example.com": {id: 10, hash: nil},
	}}
}

// startLogin serves a Login over users on loopback and returns its URL and log.
func startLogin(t *testing.T, users auth.Users) (string, *logbuf.Buffer) {
	t.Helper()
	login, err := auth.NewLogin(users, newIssuer(t), auth.LoginConfig{Cost: bcrypt.MinCost})
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	logs, withLogger := logBuffer(t)
	srv := startServer(t, withLogger(login))
	return srv.URL, logs
}

func TestLoginSuccess(t *testing.T) {
	users := newUsers(t)
	url, _ := startLogin(t, users)
	tests := []struct {
		name        string
		contentType string
		body        string
		wantID      int64
		wantEmail   string // as passed to Users
	}{
		{name: "plain", contentType: "application/json", body: `{"email":"ada@example.com","password":"correct horse"}`, wantID: 7, wantEmail: "ada@example.com"},
		{name: "charset parameter", contentType: "application/json; charset=utf-8", body: `{"email":"ada@example.com","password":"correct horse"}`, wantID: 7, wantEmail: "ada@example.com"},
		{name: "upper-case media type", contentType: "Application/JSON", body: `{"email":"ada@example.com","password":"correct horse"}`, wantID: 7, wantEmail: "ada@example.com"},
		{name: "+json media type", contentType: "application/vnd.api+json", body: `{"email":"ada@example.com","password":"correct horse"}`, wantID: 7, wantEmail: "ada@example.com"},
		{name: "e-mail trimmed", contentType: "application/json", body: `{"email":"  ada@example.com\t","password":"correct horse"}`, wantID: 7, wantEmail: "ada@example.com"},
		{name: "password not trimmed", contentType: "application/json", body: `{"email":"spaces@example.com","password":" padded "}`, wantID: 8, wantEmail: "spaces@example.com"},
		{name: "other fields ignored", contentType: "application/json", body: `{"email":"ada@example.com","password":"correct horse","remember":true,"sub":1}`, wantID: 7, wantEmail: "ada@example.com"},
	}
	v := newVerifier(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(users.lookedUp())
			req := newRequest(t, http.MethodPost, url, tt.body, http.Header{"Content-Type": {tt.contentType}})
			got := do(t, req, "Content-Type", "Cache-Control")
			if got.status != http.StatusOK {
				t.Fatalf("status = %d, body %s; want 200", got.status, got.body)
			}
			if want := map[string]string{"Content-Type": "application/json", "Cache-Control": "no-store"}; fmt.Sprint(got.headers) != fmt.Sprint(want) {
				t.Errorf("headers = %v; want %v", got.headers, want)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(got.body), &body); err != nil {
				t.Fatalf("body %s: %v", got.body, err)
			}
			token, _ := body["access_token"].(string)
			want := fmt.Sprintf(`{"access_token":%q,"token_type":"bearer","expires_in":3600}`, token)
			if got.body != want {
				t.Errorf("body = %s; want %s", got.body, want)
			}
			if tok, err := v.Verify(context.Background(), token); err != nil || tok.UserID != tt.wantID {
				t.Errorf("Verify(access_token) = %+v, %v; want user %d, nil", tok, err, tt.wantID)
			}
			if got := users.lookedUp()[before:]; len(got) != 1 || got[0] != tt.wantEmail {
				t.Errorf("Users asked for %q; want [%q]", got, tt.wantEmail)
			}
		})
	}
}

func TestLoginRefused(t *testing.T) {
	const (
		invalid  = `{"message":"Invalid credentials."}`
		internal = `{"message":"Internal server error."}`
	)
	bigBody := `{"email":"` + strings.Repeat("a", auth.DefaultMaxBodyBytes) + `","password":"x"}`
	tests := []struct {
		name        string
		method      string // POST when empty
		contentType string // application/json when empty; "-" for none
		body        string
		chunked     bool // hide the length
		usersErr    error
		want        response
		wantLog     string
	}{
		{
			name:    "wrong password",
			body:    `{"email":"ada@example.com","password":"Correct horse"}`,
			want:    response{status: 401, headers: map[string]string{"WWW-Authenticate": "Bearer", "Allow": ""}, body: invalid},
			wantLog: `"level":"info","user_id":7,"message":"auth: login refused: wrong password"`,
		},
		{
			name:    "unknown e-mail address",
			body:    `{"email":"eve@example.com","password":"correct horse"}`,
			want:    response{status: 401, headers: map[string]string{"WWW-Authenticate": "Bearer", "Allow": ""}, body: invalid},
			wantLog: `"level":"info","message":"auth: login refused: unknown e-mail address"`,
		},
		{
			name: "padded password trimmed by the client",
			body: `{"email":"spaces@example.com","password":"padded"}`,
			want: response{status: 401, headers: map[string]string{"WWW-Authenticate": "Bearer", "Allow": ""}, body: invalid},
		},
		{
			name:    "stored hash unusable",
			body:    `{"email":"broken@example.com","password":"correct horse"}`,
			want:    response{status: 401, headers: map[string]string{"WWW-Authenticate": "Bearer", "Allow": ""}, body: invalid},
			wantLog: `"level":"error","error":"crypto/bcrypt: hashedSecret too short to be a bcrypted password","user_id":9`,
		},
		{
			name:    "user without a hash",
			body:    `{"email":"nohash@example.com","password":"correct horse"}`,
			want:    response{status: 401, headers: map[string]string{"WWW-Authenticate": "Bearer", "Allow": ""}, body: invalid},
			wantLog: `"level":"info","user_id":10,"message":"auth: login refused: the user has no password"`,
		},
		{
			name: "both fields missing",
			body: `{}`,
			want: response{status: 422, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""},
				body: `{"message":"The email field is required. (and 1 more error)","errors":{"email":["The email field is required."],"password":["The password field is required."]}}`},
		},
		{
			name: "fields of the wrong type",
			body: `{"email":123,"password":["x"]}`,
			want: response{status: 422, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""},
				body: `{"message":"The email field must be a string. (and 1 more error)","errors":{"email":["The email field must be a string."],"password":["The password field must be a string."]}}`},
		},
		{
			name: "empty password",
			body: `{"email":"ada@example.com","password":""}`,
			want: response{status: 422, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""},
				body: `{"message":"The password field is required.","errors":{"password":["The password field is required."]}}`},
		},
		{
			name: "blank e-mail address and null password",
			body: `{"email":" \t ","password":null}`,
			want: response{status: 422, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""},
				body: `{"message":"The email field is required. (and 1 more error)","errors":{"email":["The email field is required."],"password":["The password field is required."]}}`},
		},
		{
			name: "malformed JSON",
			body: `{"email":"ada@example.com",`,
			want: response{status: 400, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"Malformed JSON."}`},
		},
		{
			name: "trailing data",
			body: `{"email":"ada@example.com","password":"correct horse"} {}`,
			want: response{status: 400, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"Malformed JSON."}`},
		},
		{
			name: "empty body",
			body: ``,
			want: response{status: 400, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"Malformed JSON."}`},
		},
		{
			name: "array body",
			body: ` [{"email":"ada@example.com","password":"correct horse"}]`,
			want: response{status: 400, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body must be a JSON object."}`},
		},
		{
			name: "null body",
			body: `null`,
			want: response{status: 400, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body must be a JSON object."}`},
		},
		{
			name:        "form body",
			contentType: "application/x-www-form-urlencoded",
			body:        `email=ada%40example.com&password=correct+horse`,
			want:        response{status: 415, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body must be sent as application/json."}`},
		},
		{
			name:        "no content type",
			contentType: "-",
			body:        `{"email":"ada@example.com","password":"correct horse"}`,
			want:        response{status: 415, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body must be sent as application/json."}`},
		},
		{
			name:        "text/plain",
			contentType: "text/plain",
			body:        `{"email":"ada@example.com","password":"correct horse"}`,
			want:        response{status: 415, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body must be sent as application/json."}`},
		},
		{
			name: "body over the cap",
			body: bigBody,
			want: response{status: 413, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body is too large."}`},
		},
		{
			name:    "chunked body over the cap",
			body:    bigBody,
			chunked: true,
			want:    response{status: 413, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: `{"message":"The request body is too large."}`},
		},
		{
			name:   "GET",
			method: http.MethodGet,
			want:   response{status: 405, headers: map[string]string{"WWW-Authenticate": "", "Allow": "POST"}, body: `{"message":"Method not allowed."}`},
		},
		{
			name:   "PUT",
			method: http.MethodPut,
			body:   `{"email":"ada@example.com","password":"correct horse"}`,
			want:   response{status: 405, headers: map[string]string{"WWW-Authenticate": "", "Allow": "POST"}, body: `{"message":"Method not allowed."}`},
		},
		{
			name:     "lookup failure",
			body:     `{"email":"ada@example.com","password":"correct horse"}`,
			usersErr: errors.New("db: connection refused"),
			want:     response{status: 500, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: internal},
			wantLog:  `"level":"error","error":"db: connection refused","message":"auth: login: looking up the user"`,
		},
		{
			name:    "store returns a bad user id",
			body:    `{"email":"nobody@example.com","password":"correct horse"}`,
			want:    response{status: 500, headers: map[string]string{"WWW-Authenticate": "", "Allow": ""}, body: internal},
			wantLog: `"level":"error","error":"auth: invalid subject: user id 0 is not positive","user_id":0`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			users := newUsers(t)
			users.err = tt.usersErr
			url, logs := startLogin(t, users)
			method := tt.method
			if method == "" {
				method = http.MethodPost
			}
			header := http.Header{"Content-Type": {"application/json"}}
			switch tt.contentType {
			case "":
			case "-":
				header = nil
			default:
				header = http.Header{"Content-Type": {tt.contentType}}
			}
			req := newRequest(t, method, url, tt.body, header)
			if tt.chunked {
				req.Body = io.NopCloser(strings.NewReader(tt.body))
				req.ContentLength = -1
			}
			got := do(t, req, "WWW-Authenticate", "Allow")
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			log := logs.String()
			if !strings.Contains(log, tt.wantLog) {
				t.Errorf("log = %s; want it to contain %s", log, tt.wantLog)
			}
			if strings.Contains(log, "horse") {
				t.Errorf("log = %s; it contains the password", log)
			}
		})
	}
}

func TestNewLoginErrors(t *testing.T) {
	iss := newIssuer(t)
	tests := []struct {
		name    string
		users   auth.Users
		issuer  *auth.Issuer
		cfg     auth.LoginConfig
		wantErr []string
	}{
		{name: "no users", issuer: iss, cfg: auth.LoginConfig{Cost: bcrypt.MinCost}, wantErr: []string{"auth: NewLogin needs Users"}},
		{name: "no issuer", users: &memUsers{}, cfg: auth.LoginConfig{Cost: bcrypt.MinCost}, wantErr: []string{"auth: NewLogin needs an Issuer"}},
		{name: "cost too low", users: &memUsers{}, issuer: iss, cfg: auth.LoginConfig{Cost: 3}, wantErr: []string{"auth: LoginConfig.Cost is 3; bcrypt needs 4..31"}},
		{name: "cost too high", users: &memUsers{}, issuer: iss, cfg: auth.LoginConfig{Cost: 32}, wantErr: []string{"LoginConfig.Cost is 32"}},
		{name: "negative body cap", users: &memUsers{}, issuer: iss, cfg: auth.LoginConfig{Cost: bcrypt.MinCost, MaxBodyBytes: -1}, wantErr: []string{"LoginConfig.MaxBodyBytes is -1"}},
		{name: "all at once", cfg: auth.LoginConfig{Cost: 99, MaxBodyBytes: -1}, wantErr: []string{"needs Users", "needs an Issuer", "Cost is 99", "MaxBodyBytes is -1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := auth.NewLogin(tt.users, tt.issuer, tt.cfg)
			if err == nil || l != nil {
				t.Fatalf("NewLogin = %v, %v; want nil and an error", l, err)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error = %q; want it to contain %q", err, want)
				}
			}
		})
	}
}

func TestLoginBodyCap(t *testing.T) {
	login, err := auth.NewLogin(newUsers(t), newIssuer(t), auth.LoginConfig{Cost: bcrypt.MinCost, MaxBodyBytes: 64})
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	srv := startServer(t, login)
	json := func(n int) string { // a body of exactly n bytes
		base := `{"email":"ada@example.com","password":"correct horse"}`
		return base[:len(base)-1] + strings.Repeat(" ", n-len(base)) + "}"
	}
	for _, tt := range []struct {
		size       int
		wantStatus int
	}{
		{size: 64, wantStatus: http.StatusOK},
		{size: 65, wantStatus: http.StatusRequestEntityTooLarge},
	} {
		req := newRequest(t, http.MethodPost, srv.URL, json(tt.size), http.Header{"Content-Type": {"application/json"}})
		if got := do(t, req); got.status != tt.wantStatus {
			t.Errorf("%d-byte body: status %d, body %s; want %d", tt.size, got.status, got.body, tt.wantStatus)
		}
	}
}

func TestHashPassword(t *testing.T) {
	hash, err := auth.HashPassword("correct horse", bcrypt.MinCost)
	if err != nil {
		t.Fatalf("HashPassword: %v", err)
	}
	if cost, err := bcrypt.Cost(hash); err != nil || cost != bcrypt.MinCost {
		t.Errorf("bcrypt.Cost = %d, %v; want %d", cost, err, bcrypt.MinCost)
	}
	if err := bcrypt.CompareHashAndPassword(hash, []byte("correct horse")); err != nil {
		t.Errorf("the hash does not match its password: %v", err)
	}
	for _, tc := range []struct {
		password string
		cost     int
		want     string
	}{
		{"", 0, "auth: password is empty"},
		{"correct\x00horse", 0, "auth: password holds a NUL character"},
		{strings.Repeat("x", 73), 0, "auth: the password is 73 bytes long; at most 72 are allowed: bcrypt: password length exceeds 72 bytes"},
		{"correct horse", 3, "auth: bcrypt cost 3 is outside 4..31"},
		{"correct horse", 32, "auth: bcrypt cost 32 is outside 4..31"},
	} {
		if _, err := auth.HashPassword(tc.password, tc.cost); err == nil || err.Error() != tc.want {
			t.Errorf("HashPassword(%.10q…, %d) error = %v; want %s", tc.password, tc.cost, err, tc.want)
		}
	}
	if _, err := auth.HashPassword(strings.Repeat("x", 73), bcrypt.MinCost); !errors.Is(err, bcrypt.ErrPasswordTooLong) {
		t.Errorf("HashPassword(73 bytes) error = %v; want one wrapping bcrypt.ErrPasswordTooLong", err)
	}
	if _, err := auth.HashPassword(strings.Repeat("x", 72), bcrypt.MinCost); err != nil {
		t.Errorf("HashPassword(72 bytes) error = %v; want none", err)
	}
}

// TestLoginPasswordOver72Bytes: bcrypt reads 72 bytes of a password, so
// a user whose password is 72 bytes long could otherwise log in with
// anything appended to it.
func TestLoginPasswordOver72Bytes(t *testing.T) {
	long := strings.Repeat("p", auth.MaxPasswordBytes)
	users := &memUsers{users: map[string]memUser{"long@example.com": {id: 11, hash: minCostHash(t, long)}}}
	url, logs := startLogin(t, users)
	for _, tc := range []struct {
		password string
		status   int
	}{
		{long, http.StatusOK},
		{long + "anything", http.StatusUnauthorized},
		{long + "p", http.StatusUnauthorized},
		{long[:71], http.StatusUnauthorized},
	} {
		body := fmt.Sprintf(`{"email":"long@example.com","password":%q}`, tc.password)
		got := do(t, newRequest(t, http.MethodPost, url, body, http.Header{"Content-Type": {"application/json"}}))
		if got.status != tc.status {
			t.Errorf("password of %d bytes: status %d, body %s; want %d", len(tc.password), got.status, got.body, tc.status)
		}
		if tc.status == http.StatusUnauthorized && got.body != `{"message":"Invalid credentials."}` {
			t.Errorf("password of %d bytes: body %s", len(tc.password), got.body)
		}
	}
	if !strings.Contains(logs.String(), "wrong password") {
		t.Errorf("the refusals were not logged as wrong passwords:\n%s", logs.String())
	}
}

// TestLoginNotUTF8 checks that a login body that is not UTF-8 is a 400
// before any lookup, wherever the bad bytes are and however it is sent.
func TestLoginNotUTF8(t *testing.T) {
	users := newUsers(t)
	url, _ := startLogin(t, users)
	for _, tt := range []struct {
		name, body string
		chunked    bool
	}{
		{name: "0xff in the e-mail address", body: "{\"email\":\"ada\xff@example.com\",\"password\":\"correct horse\"}"},
		{name: "Latin-1 password", body: "{\"email\":\"ada@example.com\",\"password\":\"caf\xe9\"}"},
		{name: "a surrogate", body: "{\"email\":\"ada@example.com\",\"password\":\"\xed\xa0\x80\"}"},
		{name: "an overlong encoding", body: "{\"email\":\"ada@example.com\",\"password\":\"\xc0\xaf\"}"},
		{name: "a member name", body: "{\"email\":\"ada@example.com\",\"password\":\"correct horse\",\"\xff\":1}"},
		{name: "chunked", body: "{\"email\":\"ada\xff@example.com\",\"password\":\"correct horse\"}", chunked: true},
	} {
		req := newRequest(t, http.MethodPost, url, tt.body, http.Header{"Content-Type": {"application/json"}})
		if tt.chunked {
			req.Body = io.NopCloser(strings.NewReader(tt.body))
			req.ContentLength = -1
		}
		want := response{status: 400, headers: map[string]string{"WWW-Authenticate": ""}, body: `{"message":"The request body is not valid UTF-8."}`}
		if got := do(t, req, "WWW-Authenticate"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, want)
		}
	}
	if got := users.lookedUp(); len(got) != 0 {
		t.Errorf("Users was asked for %q; want no lookup", got)
	}
}
