package auth_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
)

// TestRemember: behind Remember, every AuthenticateContext of a request
// answers from the one check made at the door: no statement for the
// second and third look, the same user, the same refusal.
func TestRemember(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			_, v := pair(t, testSecret, auth.Config{Tokens: s.tokens, Now: testConfig().Now})
			_, other := pair(t, testSecret, auth.Config{Tokens: s.tokens, Now: testConfig().Now})
			valid := hs256(t, with(map[string]any{"sub": "7", "jti": "remember"}))
			for _, tt := range []struct {
				name, header string
				user         int64 // 0: none
				refused      bool
			}{
				{name: "a valid token", header: "Bearer " + valid, user: 7},
				{name: "no token"},
				{name: "an invalid token", header: "Bearer nope", refused: true},
			} {
				req := httptest.NewRequest(http.MethodPost, "/", nil)
				if tt.header != "" {
					req.Header.Set("Authorization", tt.header)
				}
				var atDoor, inside int64
				before := s.counter.Queries()
				v.Remember(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
					atDoor = s.counter.Queries() - before
					for range 3 {
						ctx, err := v.AuthenticateContext(r)
						if tt.refused != (err != nil) {
							t.Errorf("%s: AuthenticateContext error %v, want refused %v", tt.name, err, tt.refused)
							continue
						}
						if err != nil {
							continue
						}
						if id, ok := auth.UserID(ctx); id != tt.user || ok != (tt.user != 0) {
							t.Errorf("%s: user %d, %v; want %d", tt.name, id, ok, tt.user)
						}
					}
					inside = s.counter.Queries() - before - atDoor
					// Another Verifier's outcome is not this one's.
					if _, err := other.AuthenticateContext(r); (err != nil) != tt.refused {
						t.Errorf("%s: the other verifier's error %v", tt.name, err)
					}
				})).ServeHTTP(httptest.NewRecorder(), req)
				if inside != 0 {
					t.Errorf("%s: %d statements after the door, want 0", tt.name, inside)
				}
				if tt.user != 0 && atDoor == 0 {
					t.Errorf("%s: no statement at the door: the revocation check did not run", tt.name)
				}
			}
			if _, err := v.AuthenticateContext(httptest.NewRequest(http.MethodPost, "/", nil)); err != nil {
				t.Errorf("without Remember: %v", err)
			}
		})
	}
}

// The GraphQL endpoint of a service whose idempotency keys are named after
// the user: both authenticate the request, Remember checks it once.
func ExampleVerifier_Remember() {
	v, err := auth.NewVerifier(auth.HMAC([]byte("an example secret of 32 bytes...")), auth.Config{})
	if err != nil {
		panic(err)
	}
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// graphqlhttp (Config.Auth: v) and the key's subject each call:
		ctx, err := v.AuthenticateContext(r)
		_, signedIn := auth.UserID(ctx)
		fmt.Println(err, signedIn)
	})
	h := v.Remember(endpoint) // in front of both
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/api/graphql", nil))
	// Output: <nil> false
}
