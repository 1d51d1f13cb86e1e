package idempotency

import "testing"

// FuzzParseKey: any header value is either refused or gives a key of 1 to
// MaxKeyLength printable ASCII characters without quotes.
func FuzzParseKey(f *testing.F) {
	for _, seed := range []string{"k", `"k"`, `""`, "", "a\tb", "clé", `"a"b"`, "\"", "a b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		k, ok := parseKey([]string{v})
		if !ok {
			return
		}
		if k == "" || len(k) > MaxKeyLength {
			t.Fatalf("parseKey(%q) = %q: bad length", v, k)
		}
		for i := 0; i < len(k); i++ {
			if k[i] < 0x20 || k[i] > 0x7e || k[i] == '"' {
				t.Fatalf("parseKey(%q) = %q: byte %#x", v, k, k[i])
			}
		}
	})
}
