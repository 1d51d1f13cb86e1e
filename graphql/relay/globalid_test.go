package relay_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/relay"
)

func TestGlobalIDRoundTrip(t *testing.T) {
	cases := []struct{ typ, local, want string }{
		{"Book", "42", "Qm9vazo0Mg"},
		{"Author", "a:b:c", "QXV0aG9yOmE6Yjpj"},
		{"_T9", "ünïcödé ✓", base64.RawURLEncoding.EncodeToString([]byte("_T9:ünïcödé ✓"))},
		{"X", "??>>", "WDo_Pz4-"}, // the base64url alphabet's - and _, never + and /
	}
	for _, tc := range cases {
		got := relay.GlobalID(tc.typ, tc.local)
		if got != tc.want {
			t.Errorf("GlobalID(%q, %q) = %q, want %q", tc.typ, tc.local, got, tc.want)
		}
		typ, local, err := relay.ParseGlobalID(got)
		if err != nil || typ != tc.typ || local != tc.local {
			t.Errorf("ParseGlobalID(%q) = %q, %q, %v; want %q, %q", got, typ, local, err, tc.typ, tc.local)
		}
	}
}

func TestParseGlobalIDRefusals(t *testing.T) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	good := relay.GlobalID("Book", "42")
	long := relay.GlobalID("Book", strings.Repeat("9", relay.MaxGlobalIDLength))
	cases := map[string]string{
		"empty":              "",
		"not base64":         "!!!!",
		"plain text":         "Book:42",
		"padded":             "Qm9vazo0Mg==",
		"standard alphabet":  strings.NewReplacer("-", "+", "_", "/").Replace(relay.GlobalID("X", "??>>")),
		"stray low bits":     good[:len(good)-1] + "h", // "Mg" → "Mh": same bytes, other bits
		"truncated":          good[:len(good)-1],
		"line break":         good[:4] + "\n" + good[4:],
		"trailing CRLF":      good + "\r\n",
		"no colon":           enc("Book42"),
		"empty type":         enc(":42"),
		"empty local id":     enc("Book:"),
		"type not a name":    enc("Bo-ok:42"),
		"type starts digit":  enc("9Book:42"),
		"space in type":      enc("Book :42"),
		"local id not UTF-8": enc("Book:\xff\xfe"),
		"too long":           long,
		"huge":               strings.Repeat("QUFB", 100_000),
	}
	for name, s := range cases {
		if typ, local, err := relay.ParseGlobalID(s); !errors.Is(err, relay.ErrInvalidID) {
			t.Errorf("%s: ParseGlobalID(%.40q) = %q, %q, %v; want ErrInvalidID", name, s, typ, local, err)
		}
	}
	// The longest accepted ID is MaxGlobalIDLength characters.
	edge := relay.GlobalID("B", strings.Repeat("x", relay.MaxGlobalIDLength/4*3-2))
	if len(edge) != relay.MaxGlobalIDLength {
		t.Fatalf("edge ID is %d characters", len(edge))
	}
	if _, _, err := relay.ParseGlobalID(edge); err != nil {
		t.Errorf("ParseGlobalID of %d characters: %v", len(edge), err)
	}
}

// FuzzParseGlobalID checks that ParseGlobalID never panics, accepts only
// what GlobalID writes (one spelling per ID), and reads back what it
// accepts.
func FuzzParseGlobalID(f *testing.F) {
	for _, s := range []string{"", "Qm9vazo0Mg", "Qm9vazo0Mh", "Qm9vazo0Mg==", "WDo_Pz4-", "WDo/Pz4+", relay.GlobalID("A", "b:c")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, local, err := relay.ParseGlobalID(s)
		if err != nil {
			if !errors.Is(err, relay.ErrInvalidID) {
				t.Fatalf("ParseGlobalID(%q) error %v does not wrap ErrInvalidID", s, err)
			}
			return
		}
		if again := relay.GlobalID(typ, local); again != s {
			t.Fatalf("ParseGlobalID(%q) = %q, %q, whose GlobalID is %q", s, typ, local, again)
		}
	})
}
