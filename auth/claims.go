package auth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/internal/jsonnum"
)

// claims are the claims of a token as [Verifier.Verify] reads them. The
// embedded registered claims serve golang-jwt's validator (exp, nbf, iat,
// iss, aud); sub is read as this package's rule has it (see
// parseSubject), and sid and auth_time come from tokens issued with a
// refresh token.
//
// claims implements json.Unmarshaler, so that the object is read in one
// walk that also enforces what encoding/json lets through: a member name
// given twice (encoding/json keeps the last one, so a token could carry a
// second sub or exp past a reader that takes the first), a time claim
// given as a string (json.Number takes "9999999999"), and a name matched
// without regard to case ("EXP" for exp). Claim names are matched exactly,
// as RFC 7519 §4 has them; other members are skipped.
type claims struct {
	jwt.RegisteredClaims

	sub      int64  // the user id in sub; 0 when there is none
	subErr   error  // why sub names no user; reported once the signature holds
	subRaw   []byte // sub as written, read by stringSubject for tokens of public keys
	sid      string
	authTime *jwt.NumericDate
}

// UnmarshalJSON implements json.Unmarshaler. golang-jwt hands it the
// claims segment, which json.Unmarshal has checked to be valid JSON; the
// walk still checks every step, as it may be handed anything.
func (c *claims) UnmarshalJSON(data []byte) error {
	*c = claims{}
	return walkObject(data, func(name, value []byte) error {
		var err error
		switch string(name) {
		case "sub":
			c.sub, c.subErr = parseSubject(value)
			c.subRaw = value
		case "sid":
			c.sid, err = stringClaim(value)
		case "jti":
			c.ID, err = stringClaim(value)
		case "iss":
			c.Issuer, err = stringClaim(value)
		case "aud":
			err = c.Audience.UnmarshalJSON(value)
		case "exp":
			c.ExpiresAt, err = numericDate(value)
		case "nbf":
			c.NotBefore, err = numericDate(value)
		case "iat":
			c.IssuedAt, err = numericDate(value)
		case "auth_time":
			c.authTime, err = numericDate(value)
		default:
			return nil
		}
		if err != nil {
			return fmt.Errorf("claim %s: %w", name, err)
		}
		return nil
	})
}

// stringClaim reads a claim that is a JSON string; null counts as absent
// (""), as encoding/json has it.
func stringClaim(value []byte) (string, error) {
	switch {
	case string(value) == "null":
		return "", nil
	case len(value) < 2 || value[0] != '"':
		return "", errors.New("not a string")
	}
	if s, ok := plainString(value); ok {
		return string(s), nil
	}
	var s string
	if err := json.Unmarshal(value, &s); err != nil {
		return "", errors.New("not a valid string")
	}
	return s, nil
}

// plainString returns the content of the JSON string value when it holds
// printable ASCII only and no escape, so that it reads as written.
func plainString(value []byte) ([]byte, bool) {
	inner := value[1 : len(value)-1]
	for _, b := range inner {
		if b < 0x20 || b >= utf8.RuneSelf || b == '"' || b == '\\' {
			return nil, false
		}
	}
	return inner, true
}

// maxSeconds bounds a time claim: ±2^53 seconds, the integers a float64
// (and JavaScript) holds exactly, some 285 million years.
const maxSeconds = 1 << 53

// numericDate reads a time claim: a JSON number of seconds since the
// epoch, which may have a fraction (RFC 7519 §2, NumericDate). A string,
// even one holding digits, null, and anything else is refused.
func numericDate(value []byte) (*jwt.NumericDate, error) {
	if n, ok := smallInteger(value); ok {
		return jwt.NewNumericDate(time.Unix(n, 0)), nil
	}
	text := string(value)
	if !jsonnum.IsNumber(text) {
		return nil, errors.New("not a number")
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.Abs(f) > maxSeconds {
		return nil, errors.New("not a number of seconds within ±2^53")
	}
	whole, frac := math.Modf(f)
	return jwt.NewNumericDate(time.Unix(int64(whole), int64(frac*1e9))), nil
}

// smallInteger reads value when it is a non-negative integer of at most
// 15 digits (every time claim in practice), without allocating.
func smallInteger(value []byte) (int64, bool) {
	if len(value) == 0 || len(value) > 15 || len(value) > 1 && value[0] == '0' {
		return 0, false
	}
	var n int64
	for _, b := range value {
		if b < '0' || b > '9' {
			return 0, false
		}
		n = n*10 + int64(b-'0')
	}
	return n, true
}

// inlineNames is how many member names walkObject compares one by one
// before it keeps them in a map.
const inlineNames = 16

// walkObject calls fn with the name (unescaped) and the raw value of each
// member of the JSON object data, in order, and fails when data is not an
// object or names a member twice. It does not recurse: nested values are
// skipped by counting brackets.
func walkObject(data []byte, fn func(name, value []byte) error) error {
	r := jsonReader{data: data}
	if !r.consume('{') {
		return errors.New("not a JSON object")
	}
	var (
		inline [inlineNames][]byte
		names  = inline[:0]
		many   map[string]struct{}
	)
	if r.consume('}') {
		return r.end()
	}
	for {
		name, err := r.name()
		if err != nil {
			return err
		}
		if many == nil && len(names) == inlineNames {
			many = make(map[string]struct{}, 2*inlineNames)
			for _, n := range names {
				many[string(n)] = struct{}{}
			}
		}
		if many != nil {
			if _, seen := many[string(name)]; seen {
				return fmt.Errorf("member %q is named twice", truncate(string(name), 64))
			}
			many[string(name)] = struct{}{}
		} else {
			for _, n := range names {
				if string(n) == string(name) {
					return fmt.Errorf("member %q is named twice", truncate(string(name), 64))
				}
			}
			names = append(names, name)
		}
		if !r.consume(':') {
			return errors.New("a member name without its value")
		}
		value, err := r.value()
		if err != nil {
			return err
		}
		if err := fn(name, value); err != nil {
			return err
		}
		if r.consume('}') {
			return r.end()
		}
		if !r.consume(',') {
			return errors.New("members not separated by commas")
		}
	}
}

// jsonReader reads a JSON text from its start.
type jsonReader struct {
	data []byte
	pos  int
}

// space skips white space.
func (r *jsonReader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// consume skips white space and then c, and reports whether c was there.
func (r *jsonReader) consume(c byte) bool {
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == c {
		r.pos++
		return true
	}
	return false
}

// end checks that nothing but white space follows.
func (r *jsonReader) end() error {
	r.space()
	if r.pos != len(r.data) {
		return errors.New("text after the object")
	}
	return nil
}

// name reads a member name, a JSON string, and returns it unescaped: as
// written when it is plain, else decoded (so that "s\u0075b" is "sub").
func (r *jsonReader) name() ([]byte, error) {
	r.space()
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		return nil, errors.New("a member name that is not a string")
	}
	raw, err := r.value()
	if err != nil {
		return nil, err
	}
	if plain, ok := plainString(raw); ok {
		return plain, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errors.New("a member name that is not a valid string")
	}
	return []byte(s), nil
}

// value skips white space and one JSON value, and returns its text.
// Nested objects and arrays are skipped by counting brackets outside of
// strings, without recursion; the syntax inside them is not checked.
func (r *jsonReader) value() ([]byte, error) {
	r.space()
	start := r.pos
	if r.pos == len(r.data) {
		return nil, errors.New("a missing value")
	}
	switch r.data[r.pos] {
	case '"':
		if err := r.skipString(); err != nil {
			return nil, err
		}
	case '{', '[':
		if err := r.skipNested(); err != nil {
			return nil, err
		}
	default: // a number, true, false or null
		for r.pos < len(r.data) && !isDelimiter(r.data[r.pos]) {
			r.pos++
		}
		if r.pos == start {
			return nil, errors.New("a missing value")
		}
	}
	return r.data[start:r.pos], nil
}

// isDelimiter reports whether c ends a number or a literal.
func isDelimiter(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// skipNested moves past the object or array that starts at r.pos.
func (r *jsonReader) skipNested() error {
	depth := 0
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '"':
			if err := r.skipString(); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				r.pos++
				return nil
			}
		}
		r.pos++
	}
	return errors.New("the text ends inside a value")
}

// skipString moves past the string that starts at r.pos.
func (r *jsonReader) skipString() error {
	for i := r.pos + 1; i < len(r.data); i++ {
		switch r.data[i] {
		case '\\':
			i++
		case '"':
			r.pos = i + 1
			return nil
		}
	}
	return errors.New("a string without its closing quote")
}

// checkHeader checks the header segment of a compact JWS (base64url,
// which golang-jwt has decoded and parsed already) for a member named
// twice. A header of usual size is decoded on the stack.
func checkHeader(token string) error {
	segment, _, _ := strings.Cut(token, ".")
	var src [344]byte
	var dst [256]byte
	in, out := src[:], dst[:]
	if len(segment) > len(src) {
		in, out = make([]byte, len(segment)), make([]byte, base64.RawURLEncoding.DecodedLen(len(segment)))
	}
	in = in[:copy(in, segment)]
	n, err := base64.RawURLEncoding.Decode(out, in)
	if err == nil {
		err = walkObject(out[:n], func(_, _ []byte) error { return nil })
	}
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	return nil
}

// parseSubject returns the user id in a raw sub claim: a JSON string or
// number holding a positive decimal integer that fits in an int64, written
// without sign, leading zeros, fraction or exponent.
func parseSubject(raw []byte) (int64, error) {
	var digits string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return 0, fmt.Errorf("%w: sub claim is missing", ErrInvalidSubject)
	case raw[0] == '"':
		s, err := stringClaim(raw)
		if err != nil {
			return 0, fmt.Errorf("%w: sub claim is not a valid string", ErrInvalidSubject)
		}
		digits = s
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		digits = string(raw)
	default:
		return 0, fmt.Errorf("%w: sub claim is neither a string nor a number", ErrInvalidSubject)
	}
	if !plainPositive(digits) {
		return 0, fmt.Errorf("%w: sub claim is not a positive decimal integer", ErrInvalidSubject)
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: sub claim is out of the int64 range", ErrInvalidSubject)
	}
	return id, nil
}

// plainPositive reports whether s is written as a positive decimal
// integer: ASCII digits only, at least one, the first not 0 (no sign,
// leading zero, space, fraction or exponent). Its range is not checked.
func plainPositive(s string) bool {
	return s != "" && s[0] != '0' && strings.TrimLeft(s, "0123456789") == ""
}

// subjectUserID returns the user id that the subject s names, on the rule
// of a token's sub ([parseSubject]): a positive decimal int64 without sign
// or leading zero; false for any other subject.
func subjectUserID(s string) (int64, bool) {
	if !plainPositive(s) {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return id, true
}

// MaxSubjectBytes is the longest sub accepted from a token verified with a
// public key (an identity provider's), in bytes.
const MaxSubjectBytes = 255

// stringSubject returns the sub of a token from an identity provider: a
// JSON string (RFC 7519 §4.1.2) of 1 to [MaxSubjectBytes] bytes of UTF-8
// without control characters: a UUID, an opaque id, an e-mail address.
func stringSubject(raw []byte) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", fmt.Errorf("%w: sub claim is missing", ErrInvalidSubject)
	}
	if raw[0] != '"' {
		return "", fmt.Errorf("%w: sub claim is not a string", ErrInvalidSubject)
	}
	s, err := stringClaim(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: sub claim is not a valid string", ErrInvalidSubject)
	case s == "":
		return "", fmt.Errorf("%w: sub claim is empty", ErrInvalidSubject)
	case len(s) > MaxSubjectBytes:
		return "", fmt.Errorf("%w: sub claim is %d bytes, at most %d allowed", ErrInvalidSubject, len(s), MaxSubjectBytes)
	case !utf8.ValidString(s):
		return "", fmt.Errorf("%w: sub claim is not valid UTF-8", ErrInvalidSubject)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "", fmt.Errorf("%w: sub claim holds a control character", ErrInvalidSubject)
		}
	}
	return s, nil
}
