package auth_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// TestStrictClaims checks how Verify reads the claims and the header
// beyond what golang-jwt checks: the time claims are JSON numbers, no
// member is named twice (however its name is spelled), and claim names
// are matched exactly. Every token is signed with the right key.
func TestStrictClaims(t *testing.T) {
	v := newVerifier(t)
	const header = `{"alg":"HS256","typ":"JWT"}`
	exp := testNow.Add(time.Hour).Unix()
	iat := testNow.Add(-time.Minute).Unix()
	for _, tt := range []struct {
		name            string
		header, payload string
		want            string // the reason in the error; "" when accepted
	}{
		{name: "numbers", payload: fmt.Sprintf(`{"sub":"42","iat":%d,"nbf":%d,"exp":%d}`, iat, iat, exp)},
		{name: "fraction and exponent", payload: fmt.Sprintf(`{"sub":"42","iat":%d.5,"exp":%de0}`, iat, exp)},
		{name: "white space everywhere", payload: fmt.Sprintf(" {\n\t\"sub\" : \"42\" ,\r\n\"exp\" :%d } ", exp)},
		{name: "unknown claims of every kind", payload: fmt.Sprintf(`{"sub":"42","prv":"23bd5c8949f600adb39e701c400872db7a5976f7","x":{"a":[1,{"b":"}]\""}],"c":null},"y":[true,false],"exp":%d}`, exp)},
		{name: "a name escaped once", payload: fmt.Sprintf(`{"\u0073ub":"42","exp":%d}`, exp)},
		{name: "the same name in a nested object", payload: fmt.Sprintf(`{"sub":"42","x":{"sub":"7","sub":"8"},"exp":%d}`, exp)},
		{name: "names differing in case only", payload: fmt.Sprintf(`{"sub":"42","Sub":"7","exp":%d}`, exp)},

		{name: "exp as a string", payload: `{"sub":"42","exp":"9999999999"}`, want: "claim exp: not a number"},
		{name: "exp as a string of a fraction", payload: `{"sub":"42","exp":"9999999999.5"}`, want: "claim exp: not a number"},
		{name: "nbf as a string", payload: fmt.Sprintf(`{"sub":"42","nbf":"%d","exp":%d}`, iat, exp), want: "claim nbf: not a number"},
		{name: "iat as a string", payload: fmt.Sprintf(`{"sub":"42","iat":"%d","exp":%d}`, iat, exp), want: "claim iat: not a number"},
		{name: "iat null", payload: fmt.Sprintf(`{"sub":"42","iat":null,"exp":%d}`, exp), want: "claim iat: not a number"},
		{name: "exp as an object", payload: `{"sub":"42","exp":{"$numberLong":"9999999999"}}`, want: "claim exp: not a number"},
		{name: "exp beyond 2^53 seconds", payload: `{"sub":"42","exp":1e300}`, want: "claim exp: not a number of seconds within ±2^53"},
		{name: "exp only as EXP", payload: `{"sub":"42","EXP":9999999999}`, want: "token is missing required claim: exp claim is required"},
		{name: "sub twice", payload: fmt.Sprintf(`{"sub":"1","exp":%d,"sub":"2"}`, exp), want: `member "sub" is named twice`},
		{name: "sub twice, once escaped", payload: fmt.Sprintf(`{"sub":"1","exp":%d,"s\u0075b":"2"}`, exp), want: `member "sub" is named twice`},
		{name: "exp twice", payload: fmt.Sprintf(`{"sub":"42","exp":%d,"exp":%d}`, testNow.Add(-time.Hour).Unix(), exp), want: `member "exp" is named twice`},
		{name: "an unknown claim twice", payload: fmt.Sprintf(`{"sub":"42","exp":%d,"x":1,"x":2}`, exp), want: `member "x" is named twice`},
		{name: "a name twice among many", payload: `{` + manyMembers(40) + fmt.Sprintf(`"sub":"42","exp":%d,"m7":0}`, exp), want: `member "m7" is named twice`},
		{name: "typ twice in the header", header: `{"alg":"HS256","typ":"JWT","typ":"JWT"}`, payload: fmt.Sprintf(`{"sub":"42","exp":%d}`, exp), want: `header: member "typ" is named twice`},
		{name: "kid twice in the header", header: `{"alg":"HS256","kid":"` + auth.KeyID(testSecret) + `","kid":"` + auth.KeyID(testSecret) + `"}`, payload: fmt.Sprintf(`{"sub":"42","exp":%d}`, exp), want: `header: member "kid" is named twice`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == "" {
				h = header
			}
			got, err := v.Verify(context.Background(), rawToken(h, tt.payload, testSecret))
			if tt.want == "" {
				if err != nil || got.UserID != 42 {
					t.Fatalf("Verify = %+v, %v; want user 42", got, err)
				}
				return
			}
			if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Verify = %+v, %v; want ErrInvalidToken for %q", got, err, tt.want)
			}
			if strings.HasPrefix(tt.want, "claim") || strings.HasSuffix(tt.want, "twice") && !strings.HasPrefix(tt.want, "header") {
				if !errors.Is(err, jwt.ErrTokenMalformed) {
					t.Errorf("Verify = %v; want it to wrap jwt.ErrTokenMalformed", err)
				}
			}
		})
	}
}

// manyMembers is n members "m0":0, … "m<n-1>":0, each followed by a comma.
func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"m%d":0,`, i)
	}
	return b.String()
}

// TestAuthTime checks the claims of the tokens of a session: sid and
// auth_time, read back by Verify.
func TestAuthTime(t *testing.T) {
	v := newVerifier(t)
	exp := testNow.Add(time.Hour).Unix()
	login := testNow.Add(-48 * time.Hour).Unix()
	got, err := v.Verify(context.Background(), rawToken(`{"alg":"HS256"}`,
		fmt.Sprintf(`{"sub":"42","sid":"S1","auth_time":%d,"exp":%d}`, login, exp), testSecret))
	if err != nil || got.Session != "S1" || got.AuthTime.Unix() != login {
		t.Fatalf("Verify = %+v, %v; want session S1, auth time %d", got, err, login)
	}
	if _, err := v.Verify(context.Background(), rawToken(`{"alg":"HS256"}`,
		fmt.Sprintf(`{"sub":"42","sid":"S1","auth_time":"%d","exp":%d}`, login, exp), testSecret)); !errors.Is(err, jwt.ErrTokenMalformed) {
		t.Errorf("auth_time as a string: %v; want malformed", err)
	}
}
