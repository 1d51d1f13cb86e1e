package auth_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
)

// identityCase is a context and the user its accessors should read.
type identityCase struct {
	name        string
	ctx         context.Context
	wantSubject string
	wantID      int64
	wantIDOK    bool
	wantOK      bool
}

func TestContextIdentity(t *testing.T) {
	tests := []identityCase{
		{name: "none", ctx: context.Background()},
		{name: "user id", ctx: auth.WithUserID(context.Background(), 42), wantSubject: "42", wantID: 42, wantIDOK: true, wantOK: true},
		{name: "uuid subject", ctx: auth.WithSubject(context.Background(), "0b7e6a52-3c1f-4a1e-9f0e-5d2b8c1a7e44"), wantSubject: "0b7e6a52-3c1f-4a1e-9f0e-5d2b8c1a7e44", wantOK: true},
		{name: "decimal subject", ctx: auth.WithSubject(context.Background(), "7"), wantSubject: "7", wantID: 7, wantIDOK: true, wantOK: true},
		{name: "largest subject", ctx: auth.WithSubject(context.Background(), "9223372036854775807"), wantSubject: "9223372036854775807", wantID: 9223372036854775807, wantIDOK: true, wantOK: true},
		{name: "token", ctx: auth.WithToken(context.Background(), auth.Token{UserID: 9}), wantSubject: "9", wantID: 9, wantIDOK: true, wantOK: true},
	}
	// A string subject is a user id on the rule of the kit's tokens: a
	// positive decimal int64 without sign or leading zero. The others
	// are subjects only.
	for _, sub := range []string{"+1", "01", "0", "00", "-7", "-0", " 7", "7 ", "1e3", "1.0", "0x1F", "", "9223372036854775808", "٣"} {
		tests = append(tests, identityCase{name: "subject " + strconv.Quote(sub), ctx: auth.WithSubject(context.Background(), sub), wantSubject: sub, wantOK: true})
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
