package articles

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/respbudget"
)

// Messages of the answers to a list that cannot be served.
const (
	// MessageBusy is the message of the 503 answering a list that the
	// response budget has no room for now (see Config.ResponseBudget).
	MessageBusy = respbudget.MessageBusy
	// MessagePageTooLarge is the message of the 400 answering a list
	// whose answer would be larger than Config.MaxListBytes.
	MessagePageTooLarge = "The page is larger than the limit; ask for fewer articles per page."
)

// firstListShare is the share of the response budget every list starts
// with (at most MaxListBytes): it holds a page of 15 articles of some
// 16 KB each, which most pages are not.
const firstListShare = respbudget.DefaultFirstShare

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	if !h.hasBase(w, r) {
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		httpjson.WriteMessage(w, http.StatusBadRequest, "The query string is malformed.")
		return
	}
	if _, ok := q["cursor"]; ok {
		h.listCursor(w, r, q)
		return
	}
	p, problems := readPaging(q)
	if len(problems) > 0 {
		httpjson.WriteValidationFailed(w, problems)
		return
	}
	if answeredHead(w, r) {
		return
	}
	// The share is taken, waiting if need be, before the store holds
	// anything; the page then grows into the budget as it is read,
	// without waiting, and the answer is sent once the store is done.
	a, err := h.newListAnswer(r, p.perPage)
	if err == nil {
		defer h.releaseListAnswer(a)
		err = h.store.ListPublished(r.Context(), p.perPage, p.offset(), &a.page)
		if err == nil {
			err = a.finish(h.collectionURL(r), p, a.page.Total)
		}
	}
	h.writeList(w, r, a, err)
}

// listCursor answers a cursor page (see cursorpage.go): like list, with
// one article more than the page read by keyset, and Laravel's
// cursorPaginate keys after the articles.
func (h *Handler) listCursor(w http.ResponseWriter, r *http.Request, q url.Values) {
	p, problems := h.readCursorPaging(q)
	if len(problems) > 0 {
		httpjson.WriteValidationFailed(w, problems)
		return
	}
	if answeredHead(w, r) {
		return
	}
	seek := p.seek()
	a, err := h.newListAnswer(r, seek.Limit)
	if err == nil {
		defer h.releaseListAnswer(a)
		a.positions = make([]Position, 0, seek.Limit)
		err = h.store.ListPublishedFrom(r.Context(), seek, &a.page)
		if err == nil {
			err = a.finishCursor(h, h.collectionURL(r), p)
		}
	}
	h.writeList(w, r, a, err)
}

// writeList writes the list answer a, or the error that ended it.
func (h *Handler) writeList(w http.ResponseWriter, r *http.Request, a *listAnswer, err error) {
	switch {
	case errors.Is(err, respbudget.ErrBusy):
		w.Header().Set("Retry-After", "1")
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, MessageBusy)
		return
	case err != nil:
		h.errs.WriteREST(w, r, err)
		return
	}
	h.writeBody(w, r, http.StatusOK, a.buf)
}

// listAnswer is a list answer under way: {"data":[, then the JSON of the
// articles as the store reads them, then the links and meta, in one
// buffer whose capacity its share of the response budget covers. Answers
// are pooled (Handler.answers) with their buffers.
type listAnswer struct {
	page  Page // what the store fills; its answer is this one
	buf   []byte
	share respbudget.Share
	max   int   // Config.MaxListBytes; 0: none
	limit int   // the page size
	n     int   // articles added
	err   error // the answer failed (see fail): the page ends

	// For a cursor page: the positions of the articles added (nil for an
	// offset page), where the first article's JSON ends and where the
	// last one's begins (with its comma), to drop the extra article.
	positions  []Position
	firstEnd   int
	lastBegins int
}

// articleOverhead is what an article's JSON takes besides its title, body
// and author's name, rounded up: keys, ids, timestamps.
const articleOverhead = 256

// newListAnswer starts the answer to a list of pages of limit articles:
// a first share of the budget, which it waits for (respbudget.ErrBusy
// when none comes in time), and an answer from the pool.
func (h *Handler) newListAnswer(r *http.Request, limit int) (*listAnswer, error) {
	var share respbudget.Share
	if h.budget != nil {
		var err error
		if share, err = h.budget.First(r.Context(), respbudget.ClientOf(r)); err != nil {
			return nil, err
		}
	}
	a, _ := h.answers.Get().(*listAnswer)
	if a == nil {
		a = &listAnswer{buf: make([]byte, 0, 4<<10)}
	}
	*a = listAnswer{page: Page{answer: a}, buf: append(a.buf[:0], `{"data":[`...), share: share, max: h.maxList, limit: limit}
	return a, nil
}

// releaseListAnswer gives a's share back, and a to the pool unless the
// page grew its buffer past what a first share covers.
func (h *Handler) releaseListAnswer(a *listAnswer) {
	a.share.Release()
	if cap(a.buf) <= h.poolCap {
		h.answers.Put(a)
	}
}

// add appends the JSON of the page's next article (see Page.Add).
func (a *listAnswer) add(art Article) error {
	if a.err != nil {
		return a.err
	}
	if err := a.room(len(a.buf) + 1 + len(art.Title) + len(art.Body) + len(art.Author.Name) + articleOverhead); err != nil {
		return a.fail(err)
	}
	begins := len(a.buf)
	if a.n > 0 {
		a.buf = append(a.buf, ',')
	}
	a.buf = art.appendJSON(a.buf)
	a.n++
	if a.positions != nil {
		a.positions = append(a.positions, PositionOf(art))
		a.lastBegins = begins
		if a.n == 1 {
			a.firstEnd = len(a.buf)
		}
	}
	if err := a.fits(); err != nil {
		return a.fail(err)
	}
	return nil
}

// fail ends the answer with err: its buffer is dropped and its share given
// back at once, so that nothing is held while the store closes its rows
// (pgx reads what is left of the result) and the refusal is written.
func (a *listAnswer) fail(err error) error {
	a.err, a.buf = err, nil
	a.share.Release()
	return err
}

// room makes the buffer's capacity need bytes or more, at once or not at
// all: ErrPageTooLarge past MaxListBytes, respbudget.ErrBusy when the
// budget has no room now. The first time the page outgrows its first
// share, the share grows to MaxListBytes in one step: pages that grow at
// the same time never each hold a part of the room and refuse each other
// the rest, and the share never grows again (it shrinks to the answer once
// the page is read). The buffer doubles, but no further than the page is
// reckoned to need from its articles so far, so that a page of like
// articles ends close to its size.
func (a *listAnswer) room(need int) error {
	if need <= cap(a.buf) {
		return nil
	}
	if a.max > 0 && need > a.max {
		return ErrPageTooLarge
	}
	c := 2 * cap(a.buf)
	if a.n > 0 {
		c = min(c, len(a.buf)/a.n*a.limit+tailBytes)
	}
	c = max(c, need)
	if a.max > 0 {
		c = min(c, a.max)
	}
	if held := a.share.Size(); int64(c) > held && held > 0 {
		if int64(need) <= held {
			c = int(held) // the first share still holds the page
		} else if err := a.share.TryGrow(int64(a.max)); err != nil {
			return err
		}
	}
	b := make([]byte, len(a.buf), c)
	copy(b, a.buf)
	a.buf = b
	return nil
}

// fits checks the answer after an append, which may have taken more than
// room reckoned (text that JSON escapes grows) and grown the buffer by
// itself: the answer within MaxListBytes, its share covering the buffer.
func (a *listAnswer) fits() error {
	if a.max > 0 && len(a.buf) > a.max {
		return ErrPageTooLarge
	}
	if c := int64(cap(a.buf)); c > a.share.Size() && a.share.Size() > 0 {
		if a.share.Size() < int64(a.max) {
			if err := a.share.TryGrow(int64(a.max)); err != nil {
				return err
			}
		}
		if c > a.share.Size() { // append grew the buffer past the bound
			b := make([]byte, len(a.buf), a.max)
			copy(b, a.buf)
			a.buf = b
		}
	}
	return nil
}

// tailBytes is what room reckons for the links and meta, besides the path
// they repeat five times.
const tailBytes = 512

// finish appends the links and meta of page p of a list of total articles,
// served at path, and shrinks the share to the buffer: the answer is
// whole, and holds no more while it is written.
func (a *listAnswer) finish(path string, p paging, total int64) error {
	if a.err != nil {
		return a.err
	}
	return a.close(5*len(path)+tailBytes, "links", func(buf []byte) ([]byte, error) {
		return appendListTail(buf, path, p, total, a.n)
	})
}

// close appends the tail that appendTail writes (taking at most room
// bytes; what names it in an error), checks that the answer still fits,
// and shrinks the share to the buffer: the answer is whole, and holds no
// more while it is written.
func (a *listAnswer) close(room int, what string, appendTail func([]byte) ([]byte, error)) error {
	if err := a.room(len(a.buf) + room); err != nil {
		return a.fail(err)
	}
	b, err := appendTail(a.buf)
	if err != nil {
		return fmt.Errorf("articles: the %s of a list: %w", what, err)
	}
	a.buf = b
	if err := a.fits(); err != nil {
		return a.fail(err)
	}
	a.share.Shrink(int64(cap(a.buf)))
	return nil
}

// finishCursor ends a cursor page p served at path: it drops the extra
// article the store read (the last one reading forward, the first one
// reading backward), appends the cursors and links, and shrinks the share
// to the buffer.
func (a *listAnswer) finishCursor(h *Handler, path string, p cursorPaging) error {
	if a.err != nil {
		return a.err
	}
	more := a.n > p.perPage
	positions := a.positions
	if more {
		if p.back {
			head := len(`{"data":[`)
			a.buf = append(a.buf[:head], a.buf[a.firstEnd+1:]...)
			positions = positions[1:]
		} else {
			a.buf = a.buf[:a.lastBegins]
			positions = positions[:len(positions)-1]
		}
	}
	tail := h.cursorTail(path, p, positions, more)
	return a.close(3*len(path)+cursorTailBytes, "cursors", func(buf []byte) ([]byte, error) {
		return appendCursorTail(buf, tail)
	})
}

// listBudget returns the response budget of the list answers that cfg
// sets (nil when off), and the bound on one answer (0: none).
func listBudget(cfg Config) (*respbudget.Budget, int, error) {
	maxList := cfg.MaxListBytes
	if maxList == 0 {
		maxList = DefaultMaxListBytes
	}
	switch {
	case cfg.ResponseBudget < 0:
		return nil, int(max(maxList, 0)), nil
	case maxList < 0:
		return nil, 0, errors.New("articles: a response budget needs a bound on each list answer: set Config.MaxListBytes, or turn the budget off with a negative Config.ResponseBudget")
	}
	b, err := respbudget.New(respbudget.Config{Size: cfg.ResponseBudget, FirstShare: firstListShare, MaxShare: maxList, Wait: cfg.ResponseBudgetWait})
	if err != nil {
		return nil, 0, fmt.Errorf("articles: Config.ResponseBudget, ResponseBudgetWait and MaxListBytes: %w", err)
	}
	return b, int(maxList), nil
}

// answeredHead answers a HEAD request for a list, whose page is not read:
// its length, what a GET would answer besides 200, is known only once it
// is. It reports whether r was one.
func answeredHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodHead {
		return false
	}
	w.Header().Set("Content-Type", httpjson.ContentType)
	w.WriteHeader(http.StatusOK)
	return true
}
