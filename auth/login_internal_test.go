package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

type noUsers struct{}

func (noUsers) PasswordHash(context.Context, string) (int64, []byte, error) {
	return 0, nil, ErrUserNotFound
}

// TestLoginUnknownUserSpendsBcrypt checks that an unknown e-mail address
// still costs one bcrypt comparison, against a stand-in of the configured
// cost.
func TestLoginUnknownUserSpendsBcrypt(t *testing.T) {
	iss, err := NewIssuer([]byte("0123456789abcdef0123456789abcdef"), Config{})
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	for _, cost := range []int{bcrypt.MinCost, bcrypt.MinCost + 1} {
		l, err := NewLogin(noUsers{}, iss, LoginConfig{Cost: cost})
		if err != nil {
			t.Fatalf("NewLogin: %v", err)
		}
		var compared [][]byte
		l.compare = func(hash, password []byte) error {
			compared = append(compared, hash)
			return bcrypt.CompareHashAndPassword(hash, password)
		}
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"email":"eve@example.com","password":"guess"}`))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		l.ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized {
			t.Fatalf("status = %d; want 401", w.Code)
		}
		if len(compared) != 1 || string(compared[0]) != string(l.dummy) {
			t.Fatalf("compared %q; want one comparison against the stand-in hash", compared)
		}
		if got, err := bcrypt.Cost(l.dummy); err != nil || got != cost {
			t.Errorf("stand-in hash cost = %d, %v; want %d", got, err, cost)
		}
	}
}
