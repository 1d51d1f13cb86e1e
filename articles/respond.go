package articles

import (
	"fmt"
	"net/http"
	"strconv"

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

// listBufferBytes is how much of a list answer is gathered before any of
// it is sent: an answer that fits is sent whole, with a Content-Length,
// and a store failure can still be answered with a proper error; a
// larger one is sent in pieces of about this size as the store reads the
// articles, so that a list never holds its page in memory.
const listBufferBytes = 32 << 10

// listWriter writes a list answer (see appendListTail) as the articles
// come from the store.
type listWriter struct {
	w       http.ResponseWriter
	buf     *[]byte // from Handler.bufs
	n       int     // articles written
	started bool    // the status and some of the body have been sent
	err     error   // writing to the client failed
}

// article appends one article of the page, sending what is gathered once
// it reaches listBufferBytes. Its error, the client's, stops the list.
func (lw *listWriter) article(a Article) error {
	b := *lw.buf
	if lw.n == 0 {
		b = append(b, `{"data":[`...)
	} else {
		b = append(b, ',')
	}
	*lw.buf = a.appendJSON(b)
	lw.n++
	if len(*lw.buf) >= listBufferBytes {
		return lw.send()
	}
	return nil
}

// send writes what is gathered to the client, with the status and headers
// the first time.
func (lw *listWriter) send() error {
	if !lw.started {
		lw.w.Header().Set("Content-Type", "application/json")
		lw.w.WriteHeader(http.StatusOK)
		lw.started = true
	}
	_, err := lw.w.Write(*lw.buf)
	*lw.buf = (*lw.buf)[:0]
	if err != nil && lw.err == nil {
		lw.err = fmt.Errorf("articles: sending a list: %w", err)
	}
	return lw.err
}

// finish appends the links and meta and sends the rest of the answer.
func (lw *listWriter) finish(path string, p paging, total int64) error {
	if lw.n == 0 {
		*lw.buf = append(*lw.buf, `{"data":[`...)
	}
	b, err := appendListTail(*lw.buf, path, p, total, lw.n)
	if err != nil {
		return err
	}
	*lw.buf = b
	if !lw.started {
		lw.w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	}
	return lw.send()
}
