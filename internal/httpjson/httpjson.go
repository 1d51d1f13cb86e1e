// Package httpjson is the kit's one JSON edge for REST handlers: it reads a
// capped JSON object body, writes JSON answers, and writes Laravel's 422
// validation answer with its one-line summary. auth, articles, errors and
// graphqlhttp share it, so that each answers the same malformed input with
// the same status and words.
package httpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/validate"
)

// Messages of the answers to a body that cannot be used.
const (
	MessageTooLarge   = "The request body is too large."
	MessageUnreadable = "The request body could not be read."
	MessageMalformed  = "Malformed JSON."
	MessageNotObject  = "The request body must be a JSON object."
	MessageNotUTF8    = "The request body is not valid UTF-8."
	MessageNotJSON    = "The request body must be sent as application/json."
	MessageInternal   = "Internal server error."
	MessageMethod     = "Method not allowed."
)

// Failure is the answer to a request whose body cannot be used.
type Failure struct {
	Status  int
	Message string
	// Err is the cause, for the log (a read error); nil otherwise.
	Err error
}

// Write answers with f's status and {"message": …}.
func (f *Failure) Write(w http.ResponseWriter) { WriteMessage(w, f.Status, f.Message) }

// ReadObject reads r's body, at most max bytes, as one JSON object in
// UTF-8, and returns its members undecoded. A body over max (by its
// Content-Length, before reading, or once read) is a 413, refused as
// [RefuseBody] and [LimitBody] say; one that cannot be read, is not UTF-8,
// is not JSON or is not an object is a 400.
func ReadObject(w http.ResponseWriter, r *http.Request, max int64) (map[string]json.RawMessage, *Failure) {
	if r.ContentLength > max {
		RefuseBody(w, r)
		return nil, &Failure{Status: http.StatusRequestEntityTooLarge, Message: MessageTooLarge}
	}
	body, err := io.ReadAll(LimitBody(w, r, max))
	if err != nil {
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return nil, &Failure{Status: http.StatusRequestEntityTooLarge, Message: MessageTooLarge}
		}
		return nil, &Failure{Status: http.StatusBadRequest, Message: MessageUnreadable, Err: err}
	}
	if !utf8.Valid(body) {
		return nil, &Failure{Status: http.StatusBadRequest, Message: MessageNotUTF8}
	}
	if !json.Valid(body) {
		return nil, &Failure{Status: http.StatusBadRequest, Message: MessageMalformed}
	}
	var fields map[string]json.RawMessage
	if body = bytes.TrimLeft(body, " \t\r\n"); body[0] != '{' || json.Unmarshal(body, &fields) != nil {
		return nil, &Failure{Status: http.StatusBadRequest, Message: MessageNotObject}
	}
	return fields, nil
}

// LimitBody returns r.Body capped at max bytes, as [http.MaxBytesReader]
// does, with one difference: it hands MaxBytesReader the innermost
// ResponseWriter (following Unwrap methods, as [http.ResponseController]
// does), so that net/http learns of a body over the cap even under
// middleware that wraps the writer (reqlog, Recover). net/http then answers
// with Connection: close and ends the connection gracefully, the rest of
// the body unread: a FIN after the answer, then a short wait before the
// close. Told nothing, it closes at once after the answer when the client
// asked for Connection: close, and the body still arriving makes the kernel
// reset the connection, which can cost the client the answer.
func LimitBody(w http.ResponseWriter, r *http.Request, max int64) io.ReadCloser {
	return http.MaxBytesReader(innermost(w), r.Body, max)
}

// RefuseBody prepares the answer to a request whose body is refused unread
// because its Content-Length is over the cap: it reads one byte of the body
// through [LimitBody] with a cap of zero, the same signal a body read past
// its cap gives net/http, so that the connection ends gracefully after the
// answer (see LimitBody). It reads nothing when the client waits for a
// "100 Continue" before sending the body: refused without one, it sends
// none, and the connection ends cleanly as it is.
func RefuseBody(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	var one [1]byte
	_, _ = LimitBody(w, r, 0).Read(one[:])
}

// maxUnwrap bounds the chain of ResponseWriter wrappers innermost follows.
const maxUnwrap = 64

// innermost returns the ResponseWriter that w wraps, through at most
// maxUnwrap Unwrap methods.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for range maxUnwrap {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		inner := u.Unwrap()
		if inner == nil {
			return w
		}
		w = inner
	}
	return w
}

// IsJSON reports whether a Content-Type is application/json or another
// JSON media type (application/problem+json and the like), parameters
// aside.
func IsJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// Marshal encodes v as JSON without HTML escaping and without a trailing
// newline, as PHP's json_encode and graphql-js write "<", ">" and "&".
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// internalBody answers when a body cannot be encoded.
const internalBody = `{"message":"` + MessageInternal + `"}`

// ContentType is the Content-Type of the JSON answers.
const ContentType = "application/json"

// headerJSON is ContentType as a header value, shared to save an
// allocation; it is never modified.
var headerJSON = []string{ContentType}

// Write answers with status and body, which is JSON, setting Content-Type
// and Content-Length.
func Write(w http.ResponseWriter, status int, body []byte) {
	WriteHead(w, status, len(body))
	_, _ = w.Write(body)
}

// WriteHead sends the status and headers of a JSON answer of n bytes,
// Content-Type and Content-Length; its body is the caller's to write.
func WriteHead(w http.ResponseWriter, status, n int) {
	h := w.Header()
	h["Content-Type"] = headerJSON
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(status)
}

// WriteValue answers with status and v encoded by [Marshal]; a value that
// cannot be encoded gives a bare 500 instead.
func WriteValue(w http.ResponseWriter, status int, v any) {
	body, err := Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(internalBody)
	}
	Write(w, status, body)
}

// WriteMessage answers with status and {"message": msg}.
func WriteMessage(w http.ResponseWriter, status int, msg string) {
	WriteValue(w, status, struct {
		Message string `json:"message"`
	}{msg})
}

// WriteValidationFailed answers 422 with Laravel's body:
// {"message": f.Summary(), "errors": {"field": ["message", …], …}}, fields
// in f's order.
func WriteValidationFailed(w http.ResponseWriter, f validate.Failures) {
	WriteValue(w, http.StatusUnprocessableEntity, struct {
		Message string            `json:"message"`
		Errors  validate.Failures `json:"errors"`
	}{f.Summary(), f})
}
