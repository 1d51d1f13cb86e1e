package response

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// refString is AppendString written the plain way, one rune at a time, as
// JSON.stringify escapes: '"', '\\' and control characters; invalid UTF-8
// becomes U+FFFD.
func refString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// TestAppendString puts every byte value at every position of a word the
// writer reads eight bytes at a time, and then some strings of every kind,
// and compares with the rune-by-rune writer.
func TestAppendString(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := string(AppendString([]byte("x"), s)), "x"+refString(s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
	for c := range 256 {
		for at := range 17 {
			b := []byte(strings.Repeat("abcdefgh", 3))
			b[at] = byte(c)
			check(string(b))
			check(string(b[:at+1]))
		}
	}
	for _, s := range []string{
		"", "a", "Post 1", "2026-01-02T09:00:00Z", "Alan Turing", `quote " and \ slash`,
		"tab\tnew line\n", "\x00\x01\x1f\x7f", "héllo wörld, ünïcödé", "日本語のテキストです",
		"\xff\xfe invalid", "ok\xc3", "\u2028\u2029", strings.Repeat("plain ", 40), strings.Repeat("é", 9),
		"12345678\"", "1234567\\8", "ABCDEFG\x19", "!#$%&'()*+,-./0123456789:;<=>?@[]^_`{|}~ ",
	} {
		check(s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text", "\"\\\n", "héllo", "\xff\xfe", strings.Repeat("a", 17) + "\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), refString(s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
