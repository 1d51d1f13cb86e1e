package auth_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

func TestAuthenticate(t *testing.T) {
	v := newVerifier(t)
	valid := hs256(t, validClaims())
	tests := []struct {
		name    string
		header  []string // Authorization values; none means no header
		wantID  int64
		wantErr error
	}{
		{name: "no header", wantErr: auth.ErrNoToken},
		{name: "empty header", header: []string{""}, wantErr: auth.ErrMalformedHeader},
		{name: "blank header", header: []string{" \t "}, wantErr: auth.ErrMalformedHeader},
		{name: "Bearer", header: []string{"Bearer " + valid}, wantID: 42},
		{name: "lowercase bearer", header: []string{"bearer " + valid}, wantID: 42},
		{name: "uppercase BEARER", header: []string{"BEARER " + valid}, wantID: 42},
		{name: "several spaces", header: []string{"Bearer   " + valid}, wantID: 42},
		{name: "surrounding blanks", header: []string{" \tBearer " + valid + " \t"}, wantID: 42},
		{name: "Basic scheme", header: []string{"Basic dXNlcjpwYXNzd29yZA=="}, wantErr: auth.ErrUnsupportedScheme},
		{name: "Token scheme", header: []string{"Token " + valid}, wantErr: auth.ErrUnsupportedScheme},
		{name: "scheme glued to token", header: []string{"Bearer" + valid}, wantErr: auth.ErrUnsupportedScheme},
		{name: "token without scheme", header: []string{valid}, wantErr: auth.ErrUnsupportedScheme},
		{name: "tab after the scheme", header: []string{"Bearer\t" + valid}, wantErr: auth.ErrMalformedHeader},
		{name: "space and tab after the scheme", header: []string{"Bearer \t" + valid}, wantErr: auth.ErrMalformedHeader},
		{name: "empty bearer", header: []string{"Bearer"}, wantErr: auth.ErrMalformedHeader},
		{name: "empty bearer with spaces", header: []string{"Bearer    "}, wantErr: auth.ErrMalformedHeader},
		{name: "two tokens", header: []string{"Bearer " + valid + " " + valid}, wantErr: auth.ErrMalformedHeader},
		{name: "quoted token", header: []string{`Bearer "` + valid + `"`}, wantErr: auth.ErrMalformedHeader},
		{name: "two headers", header: []string{"Bearer " + valid, "Bearer " + valid}, wantErr: auth.ErrMalformedHeader},
		{name: "invalid token", header: []string{"Bearer abc.def.ghi"}, wantErr: auth.ErrInvalidToken},
		{name: "invalid subject", header: []string{"Bearer " + hs256(t, with(map[string]any{"sub": "0"}))}, wantErr: auth.ErrInvalidSubject},
		{name: "header just at 8 KiB", header: []string{"Bearer " + strings.Repeat("a", auth.MaxHeaderBytes-len("Bearer "))}, wantErr: auth.ErrInvalidToken},
		{name: "header over 8 KiB", header: []string{"Bearer " + strings.Repeat("a", auth.MaxHeaderBytes)}, wantErr: auth.ErrTokenTooLarge},
		{name: "Basic header over 8 KiB", header: []string{"Basic " + strings.Repeat("a", auth.MaxHeaderBytes)}, wantErr: auth.ErrTokenTooLarge},
		{name: "valid token padded over 8 KiB", header: []string{"Bearer " + valid + strings.Repeat(" ", auth.MaxHeaderBytes)}, wantErr: auth.ErrTokenTooLarge},
		{name: "two headers over 8 KiB together", header: []string{"Bearer " + strings.Repeat("a", 5000), "Bearer " + strings.Repeat("a", 5000)}, wantErr: auth.ErrTokenTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			for _, h := range tt.header {
				r.Header.Add("Authorization", h)
			}
			tok, err := v.Authenticate(r)
			id := tok.UserID
			if tt.wantErr == nil {
				if err != nil || id != tt.wantID {
					t.Fatalf("Authenticate = %d, %v; want %d, nil", id, err, tt.wantID)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) || id != 0 {
				t.Fatalf("Authenticate = %d, %v; want 0, %v", id, err, tt.wantErr)
			}
		})
	}
}

// TestMiddleware drives Required and Optional through a real server.
func TestMiddleware(t *testing.T) {
	v := newVerifier(t)
	valid := hs256(t, validClaims())
	numeric := hs256(t, with(map[string]any{"sub": 7}))
	expired := hs256(t, with(map[string]any{"exp": testNow.Add(-time.Hour).Unix()}))

	const (
		anonymous = "anonymous"
		refused   = "refused" // the 401
	)
	tests := []struct {
		name         string
		header       []string
		wantRequired string // body of the next handler, or refused
		wantOptional string
		wantLog      string // in the log of a refusal
		wantLevel    string
	}{
		{name: "no header", wantRequired: refused, wantOptional: anonymous, wantLog: "auth: no bearer token", wantLevel: "debug"},
		{name: "valid token", header: []string{"Bearer " + valid}, wantRequired: "user 42", wantOptional: "user 42"},
		{name: "numeric sub", header: []string{"Bearer " + numeric}, wantRequired: "user 7", wantOptional: "user 7"},
		{name: "lowercase bearer", header: []string{"bearer " + valid}, wantRequired: "user 42", wantOptional: "user 42"},
		{name: "Basic scheme", header: []string{"Basic dXNlcjpwYXNzd29yZA=="}, wantRequired: refused, wantOptional: refused, wantLog: "Authorization scheme is not Bearer", wantLevel: "info"},
		{name: "Token scheme", header: []string{"Token " + valid}, wantRequired: refused, wantOptional: refused, wantLog: "Authorization scheme is not Bearer", wantLevel: "info"},
		{name: "empty header", header: []string{""}, wantRequired: refused, wantOptional: refused, wantLog: "Authorization header is empty", wantLevel: "info"},
		{name: "Bearer alone", header: []string{"Bearer"}, wantRequired: refused, wantOptional: refused, wantLog: "empty bearer token", wantLevel: "info"},
		{name: "empty bearer", header: []string{"Bearer "}, wantRequired: refused, wantOptional: refused, wantLog: "empty bearer token", wantLevel: "info"},
		{name: "tab after the scheme", header: []string{"Bearer\t" + valid}, wantRequired: refused, wantOptional: refused, wantLog: "a tab separates the scheme from the token", wantLevel: "info"},
		{name: "expired", header: []string{"Bearer " + expired}, wantRequired: refused, wantOptional: refused, wantLog: "token is expired", wantLevel: "info"},
		{name: "garbage", header: []string{"Bearer not.a.token"}, wantRequired: refused, wantOptional: refused, wantLog: "token is malformed", wantLevel: "info"},
		{name: "bad subject", header: []string{"Bearer " + hs256(t, with(map[string]any{"sub": -1}))}, wantRequired: refused, wantOptional: refused, wantLog: "auth: invalid subject", wantLevel: "info"},
		{name: "header over 8 KiB", header: []string{"Bearer " + valid + strings.Repeat("A", auth.MaxHeaderBytes)}, wantRequired: refused, wantOptional: refused, wantLog: "auth: token too large", wantLevel: "info"},
		{name: "two headers", header: []string{"Bearer " + valid, "Bearer " + valid}, wantRequired: refused, wantOptional: refused, wantLog: "2 Authorization headers", wantLevel: "info"},
	}
	for _, tt := range tests {
		for _, mw := range []struct {
			name string
			wrap func(http.Handler) http.Handler
			want string
		}{
			{name: "Required", wrap: v.Required, want: tt.wantRequired},
			{name: "Optional", wrap: v.Optional, want: tt.wantOptional},
		} {
			t.Run(mw.name+"/"+tt.name, func(t *testing.T) {
				logs, withLogger := logBuffer(t)
				srv := startServer(t, withLogger(mw.wrap(http.HandlerFunc(echoUser))))
				header := http.Header{"Authorization": tt.header}
				got := do(t, newRequest(t, http.MethodGet, srv.URL, "", header), "Content-Type", "WWW-Authenticate")

				want := response{
					status:  http.StatusOK,
					headers: map[string]string{"Content-Type": "text/plain", "WWW-Authenticate": ""},
					body:    mw.want,
				}
				if mw.want == refused {
					want = response{
						status:  http.StatusUnauthorized,
						headers: map[string]string{"Content-Type": "application/json", "WWW-Authenticate": "Bearer"},
						body:    `{"message":"Unauthenticated."}`,
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("got %+v\nwant %+v", got, want)
				}

				log := logs.String()
				switch {
				case mw.want != refused && mw.want != anonymous:
					if log != "" {
						t.Errorf("log of an accepted request = %q; want nothing", log)
					}
				case mw.want == refused:
					wantLog := fmt.Sprintf(`"level":%q`, tt.wantLevel)
					if !strings.Contains(log, wantLog) || !strings.Contains(log, tt.wantLog) {
						t.Errorf("log = %q; want %s and %q", log, wantLog, tt.wantLog)
					}
				}
				for _, h := range tt.header {
					if token := strings.TrimSpace(h[strings.IndexByte(h, ' ')+1:]); len(token) > 8 && strings.Contains(log, token) {
						t.Errorf("log %q contains the token", log)
					}
				}
			})
		}
	}
}

// echoUser answers with the authenticated user, if any.
func echoUser(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	if id, ok := auth.UserID(r.Context()); ok {
		fmt.Fprintf(w, "user %d", id)
		return
	}
	fmt.Fprint(w, "anonymous")
}

func TestMiddlewareNotCalledOnRefusal(t *testing.T) {
	v := newVerifier(t)
	for _, mw := range []func(http.Handler) http.Handler{v.Required, v.Optional} {
		var called atomic.Bool
		h := mw(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called.Store(true) }))
		srv := startServer(t, h)
		got := do(t, newRequest(t, http.MethodPost, srv.URL, "{}", http.Header{"Authorization": {"Bearer x.y.z"}}))
		if got.status != http.StatusUnauthorized || called.Load() {
			t.Errorf("status %d, next called = %v; want 401 and next not called", got.status, called.Load())
		}
	}
}

// TestAuthenticateContext checks the authentication the GraphQL endpoint
// uses: only a request without an Authorization header is anonymous; any
// header that holds no valid bearer token is an error (a 401 there), like
// an invalid token.
func TestAuthenticateContext(t *testing.T) {
	v := newVerifier(t)
	valid := hs256(t, validClaims())
	for _, tt := range []struct {
		name    string
		header  []string
		wantID  int64 // 0: none
		wantErr error
	}{
		{name: "no header"},
		{name: "valid token", header: []string{"Bearer " + valid}, wantID: 42},
		{name: "tab after the scheme", header: []string{"Bearer\t" + valid}, wantErr: auth.ErrMalformedHeader},
		{name: "Bearer alone", header: []string{"Bearer"}, wantErr: auth.ErrMalformedHeader},
		{name: "Bearer and a space", header: []string{"Bearer "}, wantErr: auth.ErrMalformedHeader},
		{name: "empty header", header: []string{""}, wantErr: auth.ErrMalformedHeader},
		{name: "Basic", header: []string{"Basic dXNlcjpwYXNz"}, wantErr: auth.ErrUnsupportedScheme},
		{name: "token without scheme", header: []string{valid}, wantErr: auth.ErrUnsupportedScheme},
		{name: "invalid token", header: []string{"Bearer a.b.c"}, wantErr: auth.ErrInvalidToken},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
			for _, h := range tt.header {
				r.Header.Add("Authorization", h)
			}
			ctx, err := v.AuthenticateContext(r)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || ctx != nil {
					t.Fatalf("AuthenticateContext = %v, %v; want nil, %v", ctx, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("AuthenticateContext error: %v", err)
			}
			id, ok := v.UserID(ctx)
			if ok != (tt.wantID != 0) || id != tt.wantID {
				t.Errorf("UserID = %d, %v; want %d", id, ok, tt.wantID)
			}
		})
	}
}
