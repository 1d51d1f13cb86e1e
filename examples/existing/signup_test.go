package main

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestSignUpRefusals: what a client may send to signUp gets a clear
// answer, also when two clients sign up with one address at once.
func TestSignUpRefusals(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			base, _ := start(t, d.open(t))

			// 20 characters, 80 bytes: more than bcrypt reads.
			expect(t, "long password", graphQL(t, base, "", signUp, map[string]any{"in": map[string]any{
				"email": "emoji@example.com", "password": strings.Repeat("🔑", 20), "displayName": "Emoji"}}),
				http.StatusOK, `{"data":null,"errors":[{"message":"The password field must not be greater than 72 bytes.","locations":[{"line":1,"column":31}],"path":["signUp"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.password":["The password field must not be greater than 72 bytes."]}}}]}`)

			const clients = 6
			bodies := make([]string, clients)
			var wg sync.WaitGroup
			for i := range clients {
				wg.Go(func() {
					got := graphQL(t, base, "", signUp, map[string]any{"in": map[string]any{
						"email": "same@example.com", "password": "correct horse", "displayName": "Same"}})
					if got.status != http.StatusOK {
						t.Errorf("sign-up %d: status %d %s", i, got.status, got.body)
					}
					bodies[i] = got.body
				})
			}
			wg.Wait()
			var signedUp, taken int
			for _, b := range bodies {
				switch {
				case strings.HasPrefix(b, `{"data":{"signUp":{"token":"`):
					signedUp++
				case strings.Contains(b, `"message":"The email has already been taken."`):
					taken++
				default:
					t.Errorf("sign-up answered %s", b)
				}
			}
			if signedUp != 1 || taken != clients-1 {
				t.Errorf("%d signed up, %d taken; want 1 and %d", signedUp, taken, clients-1)
			}
		})
	}
}
