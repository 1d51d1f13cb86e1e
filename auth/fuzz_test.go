package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// FuzzSubject signs tokens whose sub claim is arbitrary JSON and checks
// Verify against an independent reading of the rule: a JSON string or
// number spelling a positive int64 in canonical decimal.
func FuzzSubject(f *testing.F) {
	for _, seed := range []string{
		`"42"`, `42`, `0`, `"0"`, `-1`, `"-1"`, `1.5`, `1e3`, `"abc"`, `""`, `null`, `true`,
		`[42]`, `{"id":42}`, `9223372036854775807`, `9223372036854775808`, `"042"`, `"\u0034\u0032"`,
	} {
		f.Add(seed)
	}
	v := newVerifier(f)
	f.Fuzz(func(t *testing.T, raw string) {
		payload := `{"sub":` + raw + `,"exp":` + strconv.FormatInt(testNow.Unix()+60, 10) + `}`
		tok, err := v.Verify(context.Background(), rawToken(`{"alg":"HS256","typ":"JWT"}`, payload, testSecret))
		id := tok.UserID
		if !json.Valid([]byte(raw)) {
			if err == nil && id <= 0 {
				t.Fatalf("Verify accepted sub %s as %d", raw, id)
			}
			return
		}
		wantID, wantOK := referenceSubject(raw)
		if gotOK := err == nil; gotOK != wantOK || id != wantID {
			t.Fatalf("sub %s: Verify = %d, %v; want %d, accepted = %v", raw, id, err, wantID, wantOK)
		}
	})
}

// referenceSubject is the sub rule written the slow, obvious way.
func referenceSubject(raw string) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return 0, false
	}
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = string(v)
	default:
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != s {
		return 0, false
	}
	return id, true
}

// FuzzAuthenticate feeds arbitrary Authorization headers to Authenticate:
// it must never panic, and the only thing it may accept is the one token
// the test signed.
func FuzzAuthenticate(f *testing.F) {
	v := newVerifier(f)
	valid := sign(f, jwt.SigningMethodHS256, testSecret, validClaims(), nil)
	exp := strconv.FormatInt(testNow.Unix()+60, 10)
	for _, seed := range []string{
		"Bearer " + valid, "bearer " + valid, "Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Token x",
		"Bearer a.b.c", "Bearer " + valid + "=", "Bearer  " + valid, "", "Bearer\t" + valid,
		// Signed, but a member twice or exp as a string: refused.
		"Bearer " + rawToken(`{"alg":"HS256"}`, `{"sub":"42","exp":`+exp+`,"sub":"7"}`, testSecret),
		"Bearer " + rawToken(`{"alg":"HS256","alg":"HS256"}`, `{"sub":"42","exp":`+exp+`}`, testSecret),
		"Bearer " + rawToken(`{"alg":"HS256"}`, `{"sub":"42","exp":"`+exp+`"}`, testSecret),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Authorization", header)
		id, err := v.Authenticate(r)
		if err == nil && id.UserID != 42 {
			t.Fatalf("Authenticate(%q) = %+v, nil; only the signed token (user 42) may pass", header, id)
		}
	})
}
