package articles

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	apierror "github.com/gqlkit/gqlkit/errors"
)

// dataJSON is the body of a single-article answer.
type dataJSON struct {
	Data Article `json:"data"`
}

// messageJSON is the body of an error answer.
type messageJSON struct {
	Message string `json:"message"`
}

// validationJSON is the body of a 422.
type validationJSON struct {
	Message string      `json:"message"`
	Errors  fieldErrors `json:"errors"`
}

// marshal encodes v as JSON without HTML escaping and without a trailing
// newline, like PHP's json_encode (which leaves <, > and & alone).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeJSON writes v as the JSON body of an answer with the given status.
// v is one of this package's own values, so encoding cannot fail in
// practice; if it did, the answer would be a bare 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var body []byte
	var err error
	if a, ok := v.(jsonAppender); ok {
		body, err = a.appendJSON(nil)
	} else {
		body, err = marshal(v)
	}
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"message":"`+apierror.MessageInternal+`"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// jsonAppender is a body that writes its own JSON in one pass.
type jsonAppender interface {
	appendJSON(dst []byte) ([]byte, error)
}

func (d dataJSON) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"data":`...)
	dst = d.Data.appendJSON(dst)
	return append(dst, '}'), nil
}

// writeMessage writes {"message": msg}.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, messageJSON{Message: msg})
}

// writeUnauthenticated writes the 401 of a write without a (known) user.
func writeUnauthenticated(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	writeMessage(w, http.StatusUnauthorized, apierror.MessageUnauthenticated)
}

// methodNotAllowed writes a 405 listing the allowed methods.
func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	writeMessage(w, http.StatusMethodNotAllowed, "Method not allowed.")
}

// writeValidationFailed writes Laravel's 422.
func writeValidationFailed(w http.ResponseWriter, problems fieldErrors) {
	writeJSON(w, http.StatusUnprocessableEntity, validationJSON{Message: problems.summary(), Errors: problems})
}
