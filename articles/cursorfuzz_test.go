package articles_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/cursor"
)

// seekingStore answers every keyset page with no articles, remembering
// the last request.
type seekingStore struct {
	failingStore
	last *articles.Seek
}

func (s *seekingStore) ListPublishedFrom(_ context.Context, sk articles.Seek, _ *articles.Page) error {
	s.last = &sk
	return nil
}

// FuzzCursorParam sends arbitrary cursors, and cursors that carry
// arbitrary payloads under the list's own tag: every answer is a 200 or a
// 422, and what reaches the store is a valid page request.
func FuzzCursorParam(f *testing.F) {
	// The list's binding, as articles names it (cursorpage.go).
	codec := cursor.New("articles: published, newest first", nil)
	f.Add("", []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7})
	f.Add("AQ", []byte{1, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0})
	f.Add("%%", []byte{2})
	f.Fuzz(func(t *testing.T, raw string, payload []byte) {
		s := &seekingStore{}
		h, err := articles.NewHandler(s, articles.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{raw, codec.Encode(payload)} {
			s.last = nil
			req := httptest.NewRequest(http.MethodGet, "/api/articles?cursor="+url.QueryEscape(c), nil)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			body, _ := io.ReadAll(w.Result().Body)
			switch w.Code {
			case http.StatusOK:
				if s.last == nil || s.last.Limit != articles.DefaultPerPage+1 || s.last.Backward && s.last.From == nil ||
					s.last.From != nil && s.last.From.ID <= 0 {
					t.Fatalf("cursor %q: the store got %+v", c, s.last)
				}
			case http.StatusUnprocessableEntity:
				if s.last != nil {
					t.Fatalf("cursor %q: 422, yet the store was asked %+v", c, s.last)
				}
			default:
				t.Fatalf("cursor %q: %d %s", c, w.Code, body)
			}
		}
	})
}
