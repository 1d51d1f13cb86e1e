package graphqlhttp

import (
	"encoding/json"
	"net/http"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/gqlkit/gqlkit/errcode"
)

// The request body is read in two passes: json.Valid checks the whole text
// (without allocating), then jsonReader walks the checked text and builds
// only what the request needs, numbers kept as json.Number as with
// Decoder.UseNumber. This costs a fraction of encoding/json's reflection.

// jsonReader walks JSON text that json.Valid accepted.
type jsonReader struct {
	b []byte
	i int
}

func (r *jsonReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next returns the next significant byte without consuming it.
func (r *jsonReader) next() byte {
	r.space()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// str reads a string; the text is valid, so the closing quote exists.
func (r *jsonReader) str() string {
	r.space()
	start := r.i // the opening quote
	r.i++
	escaped := false
	for {
		c := r.b[r.i]
		if c == '\\' {
			escaped = true
			r.i += 2
			continue
		}
		r.i++
		if c == '"' {
			break
		}
	}
	raw := r.b[start+1 : r.i-1]
	if !escaped && utf8.Valid(raw) {
		return string(raw)
	}
	return unquote(raw)
}

// unquote decodes the inside of a JSON string that json.Valid accepted as
// encoding/json does: escapes are decoded, a \u escape of half a surrogate
// pair that is not followed by its other half, and each byte that is not
// valid UTF-8, becomes U+FFFD.
func unquote(raw []byte) string {
	out := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			e := raw[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(raw[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2:])
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r, i = d, i+6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\' and '/' stand for themselves
				out = append(out, e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	if len(out) == 0 {
		return ""
	}
	return unsafe.String(&out[0], len(out)) // out is not written again
}

// hex4 reads the four hexadecimal digits of a \u escape (json.Valid has
// checked them).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// skip passes over one value.
func (r *jsonReader) skip() {
	switch r.next() {
	case '"':
		r.str()
	case '{', '[':
		depth := 0
		for {
			switch c := r.b[r.i]; c {
			case '"':
				r.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			r.i++
			if depth == 0 {
				return
			}
		}
	default: // number, true, false, null
		for r.i < len(r.b) {
			switch r.b[r.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			r.i++
		}
	}
}

// value reads any value as encoding/json with UseNumber would.
func (r *jsonReader) value() any {
	switch c := r.next(); c {
	case '"':
		return r.str()
	case '{':
		return r.object()
	case '[':
		return r.array()
	case 't':
		r.i += 4
		return true
	case 'f':
		r.i += 5
		return false
	case 'n':
		r.i += 4
		return nil
	}
	start := r.i
	r.skip()
	return json.Number(r.b[start:r.i])
}

// object reads the object that starts at r.i.
func (r *jsonReader) object() map[string]any {
	r.i++
	m := map[string]any{}
	if r.next() == '}' {
		r.i++
		return m
	}
	for {
		k := r.str()
		r.next() // ':'
		r.i++
		m[k] = r.value()
		if r.next() == ',' {
			r.i++
			continue
		}
		r.i++ // '}'
		return m
	}
}

// array reads the array that starts at r.i.
func (r *jsonReader) array() []any {
	r.i++
	s := []any{}
	if r.next() == ']' {
		r.i++
		return s
	}
	for {
		s = append(s, r.value())
		if r.next() == ',' {
			r.i++
			continue
		}
		r.i++ // ']'
		return s
	}
}

func badRequest(msg string) *failure {
	return fail(http.StatusBadRequest, errcode.CodeBadUserInput, msg)
}

// decodeBody reads the parameters of a JSON request body. Member names are
// matched exactly; unknown members are ignored. "extensions" must be an
// object or null, and is otherwise not used.
func decodeBody(body []byte) (params, *failure) {
	var p params
	trimmed := skipSpace(body)
	if f := checkObject(trimmed); f != nil {
		return p, f
	}
	r := &jsonReader{b: trimmed, i: 1}
	hasQuery := false
	if r.next() != '}' {
		for {
			key := r.str()
			r.next() // ':'
			r.i++
			if f := p.member(r, key, &hasQuery); f != nil {
				return p, f
			}
			if r.next() == ',' {
				r.i++
				continue
			}
			break
		}
	}
	if !hasQuery {
		return p, badRequest("The query parameter is missing.")
	}
	return p, nil
}

// checkObject refuses a body that is not one valid JSON object.
func checkObject(trimmed []byte) *failure {
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return badRequest("Batching is not supported: send one operation per request.")
	case len(trimmed) == 0 || trimmed[0] != '{':
		if len(trimmed) == 0 || json.Valid(trimmed) {
			return badRequest("The request body must be a JSON object.")
		}
		return badRequest("The request body is not valid JSON.")
	case !json.Valid(trimmed):
		return badRequest("The request body is not valid JSON.")
	}
	return nil
}

// member reads the value of the body member key, at r.i, into p; a later
// member of the same name wins, as in encoding/json.
func (p *params) member(r *jsonReader, key string, hasQuery *bool) *failure {
	kind := r.next()
	switch {
	case key == "extensions" && kind != '{' && kind != 'n':
		return badRequest(msgExtensions)
	case key != "query" && key != "operationName" && key != "variables":
		r.skip()
	case kind == 'n':
		r.skip()
		switch key {
		case "query":
			*hasQuery = false
		case "operationName":
			p.operationName = ""
		default:
			p.variables = nil
		}
	case key == "query" && kind == '"':
		p.query, *hasQuery = r.str(), true
	case key == "operationName" && kind == '"':
		p.operationName = r.str()
	case key == "variables" && kind == '{':
		// Measured before it is decoded (recursively); other members are
		// skipped without recursion, however deep.
		start := r.i
		r.skip()
		if jsonDepth(r.b[start:r.i], MaxVariablesNesting) > MaxVariablesNesting {
			return badRequest(tooDeep)
		}
		r.i = start
		p.variables = r.object()
	case key == "variables":
		return badRequest("The variables parameter must be a JSON object.")
	default:
		return badRequest("The " + key + " parameter must be a string.")
	}
	return nil
}

const (
	tooDeep       = "The variables are nested more than 64 levels deep."
	msgExtensions = "The extensions parameter must be a JSON object."
)

// checkExtensions refuses the extensions parameter of a GET request unless
// it is a JSON object or null; an empty one counts as absent.
func checkExtensions(raw string) *failure {
	trimmed := skipSpace([]byte(raw))
	switch {
	case len(trimmed) == 0, string(trimmed) == "null":
		return nil
	case trimmed[0] != '{' || !json.Valid(trimmed):
		return badRequest(msgExtensions)
	}
	return nil
}

// decodeVariables reads the variables parameter of a GET request.
func decodeVariables(raw []byte) (map[string]any, *failure) {
	trimmed := skipSpace(raw)
	if string(trimmed) == "null" {
		return nil, nil
	}
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, badRequest("The variables parameter must be a JSON object.")
	}
	if jsonDepth(trimmed, MaxVariablesNesting) > MaxVariablesNesting {
		return nil, badRequest(tooDeep)
	}
	return (&jsonReader{b: trimmed}).value().(map[string]any), nil
}

// jsonDepth returns how deeply the arrays and objects of a JSON text nest.
// It stops counting once the depth exceeds limit, returning limit+1.
func jsonDepth(b []byte, limit int) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// MaxVariablesNesting bounds how deeply the JSON of the variables may nest.
const MaxVariablesNesting = 64
