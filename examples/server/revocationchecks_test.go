package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/auth"
)

// countingTokens counts the revocation checks of a real token store.
type countingTokens struct {
	auth.TokenStore
	checks atomic.Int64
}

func (c *countingTokens) Revoked(ctx context.Context, t auth.Token) (bool, error) {
	c.checks.Add(1)
	return c.TokenStore.Revoked(ctx, t)
}

// TestOneRevocationCheckPerRequest checks that an authenticated request
// costs one revocation lookup at the door, also a GraphQL mutation with an
// Idempotency-Key, whose key is named after the user before the endpoint
// gates the mutation; a write costs one more, right before it writes
// (auth.Recheck), never answered from the door's outcome.
func TestOneRevocationCheckPerRequest(t *testing.T) {
	ctx := context.Background()
	db, err := openDatabase(ctx, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	user, err := db.store.CreateUser(ctx, "Ada", "ada@example.com", []byte("not a hash"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := loadSettings(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	tokens := &countingTokens{TokenStore: db.store.Tokens()}
	secret := []byte(strings.Repeat("k", 32))
	cfg := auth.Config{Tokens: tokens}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), cfg)
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := auth.NewIssuer(secret, cfg)
	if err != nil {
		t.Fatal(err)
	}
	logger := zerolog.Nop()
	h, err := routes(db, s, verifier, issuer, &logger, &telemetry{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	token, err := issuer.Issue(user)
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name, path, body string
		header           http.Header
		status           int
		checks           int64
	}{
		{"GraphQL mutation", "/api/graphql", `{"query":"mutation { createPost(input: {title: \"t\", body: \"b\"}) { id } }"}`, nil, 200, 2},
		{"GraphQL mutation with an Idempotency-Key", "/api/graphql", `{"query":"mutation { createPost(input: {title: \"u\", body: \"b\"}) { id } }"}`,
			http.Header{"Idempotency-Key": {"k-1"}}, 200, 2},
		{"GraphQL query", "/api/graphql", `{"query":"{ posts { id } }"}`, nil, 200, 1},
		{"REST write with an Idempotency-Key", "/api/articles", `{"title":"t","body":"b"}`, http.Header{"Idempotency-Key": {"k-2"}}, 201, 2},
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = tt.header.Clone()
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		before := tokens.checks.Load()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d; want %d", tt.name, resp.StatusCode, tt.status)
		}
		if n := tokens.checks.Load() - before; n != tt.checks {
			t.Errorf("%s: %d revocation checks; want %d", tt.name, n, tt.checks)
		}
	}
}
