package validate_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

func TestAttribute(t *testing.T) {
	// The expectations are what Laravel 11's
	// str_replace('_', ' ', Str::snake($path)) gives, but for the last.
	for _, tc := range []struct {
		path, want string
	}{
		{path: "", want: ""},
		{path: "title", want: "title"},
		{path: "per_page", want: "per page"},
		{path: "createdAt", want: "created at"},
		{path: "input.tags.0", want: "input.tags.0"},
		{path: "input.createdAt", want: "input.created at"},
		{path: "CreatedAt", want: "created at"},
		{path: "userID", want: "user i d"},
		{path: "HTMLBody", want: "h t m l body"},
		{path: "first name", want: "first name"},
		{path: "first  name", want: "first name"},
		{path: " lead", want: "lead"},
		{path: "with\ttab", want: "with tab"},
		{path: "foo 1bar", want: "foo1bar"},
		{path: "a\u00a0b", want: "ab"},
		{path: "_Foo", want: "  foo"},
		{path: "snake_Case", want: "snake  case"},
		{path: "ÉtéX", want: "été x"},
		{path: "Ünïcode", want: "ünïcode"},
		{path: "tags.0.Name", want: "tags.0. name"},
		// Laravel fails on invalid UTF-8; Attribute keeps the bytes.
		{path: "bad\xffUTF", want: "bad\xff u t f"},
	} {
		if got := validate.Attribute(tc.path); got != tc.want {
			t.Errorf("Attribute(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
