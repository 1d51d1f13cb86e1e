package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

// TestEmailTakenPresented checks what apierror.Presenter shows for
// ErrEmailTaken wrapped as a store returns it, and that each client view
// is the caller's own.
func TestEmailTakenPresented(t *testing.T) {
	wrapped := fmt.Errorf("store detail: %w", auth.ErrEmailTaken)
	if !errors.Is(wrapped, auth.ErrEmailTaken) {
		t.Fatal("errors.Is(wrapped, ErrEmailTaken) = false")
	}
	const want = `{"message":"The email has already been taken.","errors":{"email":["The email has already been taken."]}}`
	for range 2 {
		status, body := apierror.Presenter{}.REST(context.Background(), wrapped)
		b, _ := json.Marshal(body)
		if status != 422 || string(b) != want {
			t.Errorf("REST = %d %s, want 422 %s", status, b, want)
		}
		var client *errcode.Error
		if errors.As(wrapped, &client) {
			client.Fields["email"] = []string{"changed by a caller"}
		}
	}
	if !strings.HasPrefix(auth.ErrEmailTaken.Error(), "auth: ") {
		t.Errorf("log text %q does not name the package", auth.ErrEmailTaken)
	}
	if errors.Is(auth.ErrEmailTaken, auth.ErrUserNotFound) || errors.Is(auth.ErrEmailTaken, errcode.ErrNotFound) {
		t.Error("ErrEmailTaken matches ErrUserNotFound or ErrNotFound")
	}
}
