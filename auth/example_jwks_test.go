package auth_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// Verify the tokens of an identity provider with the keys it publishes at
// its JWKS URL, and read the user's subject, a UUID, in the handler.
func ExampleNewJWKS() {
	// The identity provider: it signs tokens with an Ed25519 key and
	// publishes the public half as a JWK Set.
	key := ed25519.NewKeyFromSeed([]byte("an example seed of 32 bytes!!!!!"))
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := base64.RawURLEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
		fmt.Fprintf(w, `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"2026-12","use":"sig","x":%q}]}`, x)
	}))
	defer provider.Close()

	// The service: its verifier fetches the keys when a token needs them.
	keys, err := auth.NewJWKS(provider.URL+"/.well-known/jwks.json", auth.JWKSConfig{})
	if err != nil {
		log.Fatal(err)
	}
	if err := keys.Refresh(context.Background()); err != nil { // fail early if the provider is unreachable
		log.Fatal(err)
	}
	verifier, err := auth.NewVerifier(keys, auth.Config{Issuer: "https://id.example.com/", Audience: "articles"})
	if err != nil {
		log.Fatal(err)
	}
	api := httptest.NewServer(verifier.Required(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sub, _ := auth.Subject(r.Context())
		fmt.Fprintf(w, "hello %s", sub)
	})))
	defer api.Close()

	token := func(kid string) string {
		t := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{
			"iss": "https://id.example.com/",
			"aud": "articles",
			"sub": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
			"exp": time.Now().Add(5 * time.Minute).Unix(),
		})
		t.Header["kid"] = kid
		signed, err := t.SignedString(key)
		if err != nil {
			log.Fatal(err)
		}
		return signed
	}
	get := func(token string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, api.URL, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultClient.Do(req)
	}
	show(get(token("2026-12")))
	show(get(token("a-kid-the-provider-never-published")))
	// Output:
	// 200 "" hello 7c9e6679-7425-40de-944b-e07fc1f90ae7
	// 401 "Bearer" {"message":"Unauthenticated."}
}

// Verify tokens signed with fixed public keys: each key's type decides its
// algorithm, and a provider's subject need not be a number. Public keys
// need the provider's issuer and the service's audience.
func ExamplePublicKeys() {
	key := ed25519.NewKeyFromSeed([]byte("another example seed of 32 bytes"))
	verifier, err := auth.NewVerifier(auth.PublicKeys(auth.PublicKey{ID: "signing-key-1", Key: key.Public()}),
		auth.Config{Issuer: "https://id.example.com/", Audience: "articles"})
	if err != nil {
		log.Fatal(err)
	}
	sign := func(sub string) string {
		t := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{
			"iss": "https://id.example.com/",
			"aud": "articles",
			"sub": sub,
			"exp": time.Now().Add(time.Minute).Unix(),
		})
		t.Header["kid"] = "signing-key-1"
		signed, err := t.SignedString(key)
		if err != nil {
			log.Fatal(err)
		}
		return signed
	}
	for _, sub := range []string{"7c9e6679-7425-40de-944b-e07fc1f90ae7", "42"} {
		t, err := verifier.Verify(context.Background(), sign(sub))
		fmt.Printf("subject %s, user id %d, error %v\n", t.Subject, t.UserID, err)
	}
	// Output:
	// subject 7c9e6679-7425-40de-944b-e07fc1f90ae7, user id 0, error <nil>
	// subject 42, user id 42, error <nil>
}
