package articles

import (
	"net/http"

	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// dataJSON is the body of a single-article answer.
type dataJSON struct {
	Data Article `json:"data"`
}

// writeJSON writes v as the JSON body of an answer with the given status.
// v is one of this package's own values, so encoding cannot fail in
// practice; if it did, the answer would be a bare 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	a, ok := v.(jsonAppender)
	if !ok {
		httpjson.WriteValue(w, status, v)
		return
	}
	body, err := a.appendJSON(nil)
	if err != nil {
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
	}
	httpjson.Write(w, status, body)
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

// methodNotAllowed writes a 405 listing the allowed methods.
func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	httpjson.WriteMessage(w, http.StatusMethodNotAllowed, httpjson.MessageMethod)
}
