package validate_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

// source turns fuzz bytes into values and rules; it reads zeros once the
// bytes run out.
type source struct{ b []byte }

func (s *source) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *source) uint64() uint64 {
	var buf [8]byte
	for i := range buf {
		buf[i] = s.byte()
	}
	return binary.LittleEndian.Uint64(buf[:])
}

func (s *source) string() string {
	n := int(s.byte() % 24)
	if n > len(s.b) {
		n = len(s.b)
	}
	str := string(s.b[:n])
	s.b = s.b[n:]
	return str
}

// bound is a rule bound: small mostly, extreme sometimes.
func (s *source) bound() int {
	switch c := s.byte(); c % 8 {
	case 0:
		return math.MaxInt
	case 1:
		return math.MinInt
	case 2:
		return int(int64(s.uint64()))
	default:
		return int(int8(c))
	}
}

// value builds a value of any kind the rules may meet.
func (s *source) value(depth int) any {
	c := s.byte()
	if depth > 3 {
		c %= 13 // no more containers
	}
	switch c % 34 {
	case 0:
		return nil
	case 1:
		return validate.Missing
	case 2:
		return s.string()
	case 3:
		return genre(s.string())
	case 4:
		return s.byte()&1 == 1
	case 5:
		return flag(s.byte()&1 == 1)
	case 6:
		return int(int8(s.byte()))
	case 7:
		return int64(s.uint64())
	case 8:
		return s.uint64()
	case 9:
		return math.Float64frombits(s.uint64())
	case 10:
		return score(math.Float32frombits(uint32(s.uint64())))
	case 11:
		return json.Number(s.string())
	case 12:
		return level(int8(s.byte()))
	case 13:
		list := make([]any, s.byte()%5)
		for i := range list {
			list[i] = s.value(depth + 1)
		}
		return list
	case 14:
		m := map[string]any{}
		for range s.byte() % 4 {
			m[s.string()] = s.value(depth + 1)
		}
		return m
	case 15:
		return []string{s.string(), s.string()}
	case 16:
		return labels{s.string()}
	case 17:
		return [2]any{s.value(depth + 1), s.value(depth + 1)}
	case 18:
		return counts{s.string(): int(s.byte())}
	case 19:
		return point{X: int(s.byte())}
	case 20:
		return holder{V: s.value(depth + 1)}
	case 21:
		v := s.value(depth + 1)
		return &v
	case 22:
		return (*int)(nil)
	case 23:
		return func() {}
	case 24:
		return make(chan int)
	case 25:
		return complex(float64(s.byte()), 1)
	case 26:
		return map[int]any{int(s.byte()): s.value(depth + 1)}
	case 27:
		return []byte(s.string())
	case 28:
		return uintptr(s.byte())
	case 29:
		return int16(s.uint64())
	case 30:
		return []any(nil)
	case 31:
		return code(s.byte())
	case 32:
		return []labels{{s.string()}, nil}
	default:
		return float32(s.byte())
	}
}

// rules builds a list of rules, every kind of rule being possible.
func (s *source) rules(depth int) []validate.Rule {
	rules := make([]validate.Rule, s.byte()%5)
	for i := range rules {
		rules[i] = s.rule(depth)
	}
	return rules
}

func (s *source) rule(depth int) validate.Rule {
	var r validate.Rule
	c := s.byte()
	if depth > 2 {
		c %= 13 // no more Each
	}
	switch c % 14 {
	case 0:
		r = validate.Required()
	case 1:
		r = validate.String()
	case 2:
		r = validate.Boolean()
	case 3:
		r = validate.Min(s.bound())
	case 4:
		r = validate.Max(s.bound())
	case 5:
		r = validate.Between(s.bound(), s.bound())
	case 6:
		r = validate.OneOf(s.value(0), s.value(0), s.value(0))
	case 7:
		re, _ := regexp.Compile(s.string()) // nil when the text is no pattern
		r = validate.Pattern(re)
	case 8:
		r = validate.Email()
	case 9:
		r = validate.NoNullCharacters()
	case 10:
		msg := s.string()
		r = validate.Func(func(any) string { return msg })
	case 11:
		r = validate.Func(func(v any) string { panic(v) })
	case 12:
		r = validate.Rule{}
	default:
		r = validate.Each(s.rules(depth + 1)...)
	}
	if s.byte()&1 == 1 {
		r = r.WithMessage(s.string())
	}
	return r
}

// FuzzCheck runs rules built from fuzz bytes on values built from them:
// nothing panics, and what Check reports is well formed.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{}, "title")
	f.Add([]byte{13, 4, 2, 'a', 'b', 0, 9, 4}, "tags")
	f.Add([]byte{1, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "createdAt")
	f.Add([]byte{20, 13, 3, 23, 24, 30, 4, 6, 0, 7, 0}, "input.myTags")
	f.Add([]byte("\x0b\x05-1e99\x04\x03\x06\x00\x01\x02"), "per_page")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		s := &source{b: data}
		value := s.value(0)
		rules := s.rules(0)
		var got validate.Failures
		got.Check(path, value, rules...)
		got.CheckAs(path+"!", "shown", value, rules...)

		seen := map[string]bool{}
		for _, e := range got {
			if seen[e.Path] {
				t.Fatalf("path %q twice in %+v", e.Path, got)
			}
			seen[e.Path] = true
			if len(e.Messages) == 0 || !strings.HasPrefix(e.Path, path) {
				t.Fatalf("entry %+v for path %q", e, path)
			}
		}
		if value == validate.Missing {
			// Only Required sees Missing, and it stops the field's rules:
			// one message at most per Check, under the field's own path.
			for _, e := range got {
				if len(e.Messages) != 1 || e.Path != path && e.Path != path+"!" {
					t.Fatalf("Missing got %+v", got)
				}
			}
		}
		if body, err := got.MarshalJSON(); err != nil || !json.Valid(body) {
			t.Fatalf("MarshalJSON = %s, %v", body, err)
		}
		if m := got.Map(); len(m) != len(got) {
			t.Fatalf("Map() has %d paths, want %d", len(m), len(got))
		}
		if len(got) == 0 && got.Summary() != "The given data was invalid." {
			t.Fatalf("Summary() = %q with no failure", got.Summary())
		}
		_ = validate.Attribute(path)
	})
}
