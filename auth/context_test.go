package auth_test

import (
	"context"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
)

func TestContextIdentity(t *testing.T) {
	tests := []struct {
		name        string
		ctx         context.Context
		wantSubject string
		wantID      int64
		wantIDOK    bool
		wantOK      bool
	}{
		{name: "none", ctx: context.Background()},
		{name: "user id", ctx: auth.WithUserID(context.Background(), 42), wantSubject: "42", wantID: 42, wantIDOK: true, wantOK: true},
		{name: "uuid subject", ctx: auth.WithSubject(context.Background(), "0b7e6a52-3c1f-4a1e-9f0e-5d2b8c1a7e44"), wantSubject: "0b7e6a52-3c1f-4a1e-9f0e-5d2b8c1a7e44", wantOK: true},
		{name: "decimal subject", ctx: auth.WithSubject(context.Background(), "7"), wantSubject: "7", wantID: 7, wantIDOK: true, wantOK: true},
		{name: "token", ctx: auth.WithToken(context.Background(), auth.Token{UserID: 9}), wantSubject: "9", wantID: 9, wantIDOK: true, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub, ok := auth.Subject(tt.ctx)
			if sub != tt.wantSubject || ok != tt.wantOK {
				t.Errorf("Subject = %q, %v; want %q, %v", sub, ok, tt.wantSubject, tt.wantOK)
			}
			id, ok := auth.UserID(tt.ctx)
			if id != tt.wantID || ok != tt.wantIDOK {
				t.Errorf("UserID = %d, %v; want %d, %v", id, ok, tt.wantID, tt.wantIDOK)
			}
		})
	}
}
