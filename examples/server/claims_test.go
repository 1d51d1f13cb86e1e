package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"
)

// handSigned builds a token from literal header and claims JSON, signed
// with HMAC-SHA256 and secret, as a forger holding the key could.
func handSigned(header, claims, secret string) string {
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(claims))
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(input))
	return input + "." + enc.EncodeToString(mac.Sum(nil))
}

// TestStrictClaims: the time claims must be JSON numbers, and a header or
// claims object that names a member twice is refused, whichever of the
// two encoding/json would keep. Each token is signed with the server's
// key, and the one well-formed token is accepted, so that only the shape
// of the claims is refused.
func TestStrictClaims(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			for _, name := range []string{"Ida", "Jo"} {
				db.mustRun(t, "users", "add", "--name", name, "--email", strings.ToLower(name)+"@example.com", "--password", "a password")
			}
			base := db.start(t, mainEnv(secretA)...).base
			now := time.Now().Unix()
			const header = `{"alg":"HS256","typ":"JWT"}`
			audience := fmt.Sprintf(`"iss":%q,"aud":%q`, sessionIssuer, sessionAudience)
			claims := func(jti, middle string) string {
				return fmt.Sprintf(`{%s,"jti":%q,%s}`, audience, jti, middle)
			}
			times := fmt.Sprintf(`"iat":%d,"nbf":%d,"exp":%d`, now, now, now+3600)

			checkAccepted(t, base, handSigned(header, claims("good", `"sub":"1",`+times), secretA))
			for _, tc := range []struct{ name, header, claims string }{
				{"exp as a string", header, claims("exp-string", fmt.Sprintf(`"sub":"1","iat":%d,"exp":"9999999999"`, now))},
				{"iat as a string", header, claims("iat-string", fmt.Sprintf(`"sub":"1","iat":"%d","exp":%d`, now, now+3600))},
				{"nbf as a string", header, claims("nbf-string", fmt.Sprintf(`"sub":"1","nbf":"%d","exp":%d`, now, now+3600))},
				{"sub twice", header, claims("sub-twice", `"sub":"1",`+times+`,"sub":"2"`)},
				{"sub twice, once escaped", header, claims("sub-escaped", `"sub":"1",`+times+`,"s\u0075b":"2"`)},
				{"exp twice", header, claims("exp-twice", fmt.Sprintf(`"sub":"1","iat":%d,"exp":%d,"exp":%d`, now, now-7200, now+3600))},
				{"typ twice in the header", `{"alg":"HS256","typ":"JWT","typ":"JWT"}`, claims("typ-twice", `"sub":"1",`+times)},
			} {
				t.Run(tc.name, func(t *testing.T) {
					checkRefused(t, base, handSigned(tc.header, tc.claims, secretA))
				})
			}
		})
	}
}
