package auth

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// writeJSON writes v as the JSON body of a response with the given status.
// v is always one of this package's own values, so encoding cannot fail.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"message":"Internal server error."}`)
	}
	writeJSONBytes(w, status, body)
}

// writeMessage writes the body {"message": msg}.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Message string `json:"message"`
	}{msg})
}

// writeJSONBytes writes body, already JSON, with the given status.
func writeJSONBytes(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
