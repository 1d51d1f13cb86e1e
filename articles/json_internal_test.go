package articles

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// referenceJSON is the article as encoding/json writes its wire form
// without HTML escaping: what appendJSON must write byte for byte.
func referenceJSON(a Article) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(articleJSON{ID: a.ID, UserID: a.UserID, Title: a.Title, Body: a.Body, Published: a.Published,
		CreatedAt: a.CreatedAt.UTC().Format(TimeFormat), UpdatedAt: a.UpdatedAt.UTC().Format(TimeFormat), Author: a.Author})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func FuzzArticleJSON(f *testing.F) {
	for _, s := range []string{"Hello", `say "hi" \ there`, "tab\tnew\nline\r\x00\x1f", "<b>&amp;</b>", "é ✓ 😀", "\u2028\u2029", "\xff\xfe bad", ""} {
		f.Add(s, int64(7), true)
	}
	f.Fuzz(func(t *testing.T, text string, id int64, published bool) {
		at := time.Date(2026, 11, 22, 21, 40, 42, 142391000, time.FixedZone("x", 3600))
		a := Article{ID: id, UserID: -id, Title: text, Body: text + text, Published: published,
			CreatedAt: at, UpdatedAt: at.Add(time.Hour), Author: Author{ID: id, Name: text}}
		if got, want := a.appendJSON(nil), referenceJSON(a); !bytes.Equal(got, want) {
			t.Fatalf("appendJSON(%q)\n got %s\nwant %s", text, got, want)
		}
	})
}
