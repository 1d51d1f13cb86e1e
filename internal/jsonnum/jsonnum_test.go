package jsonnum

import (
	"encoding/json"
	"strings"
	"testing"
)

var cases = []struct {
	name            string
	s               string
	number, integer bool
}{
	{"zero", "0", true, true},
	{"negative zero", "-0", true, true},
	{"digits", "1234567890", true, true},
	{"negative", "-42", true, true},
	{"beyond 64 bits", "123456789012345678901234567890", true, true},
	{"fraction", "1.5", true, false},
	{"zero fraction", "0.0", true, false},
	{"negative fraction", "-0.25", true, false},
	{"exponent", "1e5", true, false},
	{"capital exponent", "1E5", true, false},
	{"signed exponent", "2.5e-3", true, false},
	{"plus exponent", "2E+10", true, false},
	{"huge exponent", "1e400", true, false},
	{"empty", "", false, false},
	{"minus alone", "-", false, false},
	{"leading zero", "01", false, false},
	{"negative leading zero", "-01", false, false},
	{"double zero", "00", false, false},
	{"plus sign", "+1", false, false},
	{"leading point", ".5", false, false},
	{"trailing point", "1.", false, false},
	{"point without digits before exponent", "1.e5", false, false},
	{"exponent without digits", "1e", false, false},
	{"exponent sign without digits", "1e+", false, false},
	{"space before", " 1", false, false},
	{"space after", "1 ", false, false},
	{"hexadecimal", "0x1F", false, false},
	{"infinity", "Infinity", false, false},
	{"NaN", "NaN", false, false},
	{"underscore", "1_000", false, false},
	{"two numbers", "1 2", false, false},
	{"non-ASCII digit", "١", false, false},
}

func TestIsNumber(t *testing.T) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsNumber(tt.s); got != tt.number {
				t.Errorf("IsNumber(%q) = %v, want %v", tt.s, got, tt.number)
			}
			if got := IsInteger(tt.s); got != tt.integer {
				t.Errorf("IsInteger(%q) = %v, want %v", tt.s, got, tt.integer)
			}
		})
	}
}

// FuzzIsNumber checks IsNumber against encoding/json: s is a number when
// it is valid JSON that decodes to a json.Number of the same text (which
// leaves out white space around it). An integer is a number without a
// fraction or an exponent.
func FuzzIsNumber(f *testing.F) {
	for _, tt := range cases {
		f.Add(tt.s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s)) && decodesToItself(s)
		if got := IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v, encoding/json says %v", s, got, want)
		}
		wantInt := want && !strings.ContainsAny(s, ".eE")
		if got := IsInteger(s); got != wantInt {
			t.Errorf("IsInteger(%q) = %v, want %v", s, got, wantInt)
		}
	})
}

// decodesToItself reports whether s decodes, with UseNumber, to the
// json.Number s.
func decodesToItself(s string) bool {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}
