package cursor_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/cursor"
)

func TestRoundTrip(t *testing.T) {
	c := cursor.New("Query.posts", nil)
	for _, p := range [][]byte{{}, {0}, []byte("hello"), bytes.Repeat([]byte{0xff}, 500)} {
		s := c.Encode(p)
		got, err := c.Decode(s)
		if err != nil || !bytes.Equal(got, p) {
			t.Errorf("Decode(Encode(%q)) = %q, %v; want the payload", p, got, err)
		}
		if strings.ContainsAny(s, "+/=") {
			t.Errorf("Encode(%q) = %q, want unpadded base64url", p, s)
		}
	}
}

func TestRefusals(t *testing.T) {
	c := cursor.New("Query.posts", nil)
	good := c.Encode([]byte("key 42"))
	flipped := []byte(good)
	flipped[3] ^= 1
	if flipped[3] == '+' || flipped[3] == '/' {
		flipped[3] ^= 2
	}
	cases := map[string]string{
		"empty":          "",
		"not base64":     "!!!!",
		"too short":      good[:8],
		"one char off":   string(flipped),
		"truncated":      good[:len(good)-1],
		"longer":         good + "A",
		"too long":       strings.Repeat("A", cursor.MaxLength+1),
		"other list":     cursor.New("Query.users", nil).Encode([]byte("key 42")),
		"other secret":   cursor.New("Query.posts", []byte("s3cret")).Encode([]byte("key 42")),
		"padded base64":  good + "==",
		"standard chars": strings.ReplaceAll(strings.ReplaceAll(good, "-", "+"), "_", "/") + "+",
	}
	for name, s := range cases {
		if _, err := c.Decode(s); !errors.Is(err, cursor.ErrInvalid) {
			t.Errorf("%s: Decode(%q) error = %v, want ErrInvalid", name, s, err)
		}
	}
	// Every single-byte change of the raw cursor is refused.
	for i := range len(good) {
		b := []byte(good)
		for _, r := range []byte("AZaz09-_") {
			if good[i] == r {
				continue
			}
			b[i] = r
			if p, err := c.Decode(string(b)); err == nil {
				// Only a change in the unused low bits of the last
				// character can decode to the same bytes.
				if i != len(good)-1 || !bytes.Equal(p, []byte("key 42")) {
					t.Errorf("Decode of %q (changed at %d) = %q, want an error", b, i, p)
				}
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	c := cursor.New("Query.posts", nil)
	f.Add(c.Encode([]byte("key")))
	f.Add("")
	f.Add("AQ")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := c.Decode(s)
		if err != nil {
			if !errors.Is(err, cursor.ErrInvalid) {
				t.Fatalf("Decode(%q) error = %v, want ErrInvalid", s, err)
			}
			return
		}
		if again, err := c.Decode(c.Encode(p)); err != nil || !bytes.Equal(again, p) {
			t.Fatalf("Decode(%q) = %q, which does not round-trip", s, p)
		}
	})
}
