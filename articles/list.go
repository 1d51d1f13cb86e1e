package articles

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/internal/stall"
)

// Messages of the answers to a list that cannot be served.
const (
	// MessageBusy is the message of the 503 answering a list that the
	// response budget has no room for now (see Config.ResponseBudget).
	MessageBusy = "The server is busy; try again shortly."
	// MessagePageTooLarge is the message of the 400 answering a list
	// whose answer would be larger than Config.MaxListBytes.
	MessagePageTooLarge = "The page is larger than the limit; ask for fewer articles per page."
)

// firstListShare is the share of the response budget every list starts
// with (at most MaxListBytes): it holds a page of 15 articles of some
// 16 KB each, which most pages are not.
const firstListShare = 256 << 10

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	if !h.hasBase(w, r) {
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		httpjson.WriteMessage(w, http.StatusBadRequest, "The query string is malformed.")
		return
	}
	p, problems := readPaging(q)
	if len(problems) > 0 {
		httpjson.WriteValidationFailed(w, problems)
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
	switch {
	case errors.Is(err, respbudget.ErrBusy):
		w.Header().Set("Retry-After", "1")
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, MessageBusy)
		return
	case err != nil:
		h.errs.WriteREST(w, r, err)
		return
	}
	hdr := w.Header()
	hdr["Content-Type"] = headerJSON
	hdr.Set("Content-Length", strconv.Itoa(len(a.buf)))
	w.WriteHeader(http.StatusOK)
	if err := stall.Write(w, h.stall, a.buf); err != nil {
		ctxlog.For(r.Context(), h.errs.Logger).Info().Err(err).Int("bytes", len(a.buf)).
			Msg("articles: the client did not take its list answer")
	}
}

// headerJSON is the Content-Type of list answers, shared to save an
// allocation; it is never modified.
var headerJSON = []string{"application/json"}

// listAnswer is a list answer under way: {"data":[, then the JSON of the
// articles as the store reads them, then the links and meta, in one
// buffer whose capacity its share of the response budget covers. Answers
// are pooled (Handler.answers) with their buffers.
type listAnswer struct {
	page  Page // what the store fills; its answer is this one
	buf   []byte
	share respbudget.Share
	max   int // Config.MaxListBytes; 0: none
	limit int // the page size
	n     int // articles added
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
	if err := a.room(len(a.buf) + 1 + len(art.Title) + len(art.Body) + len(art.Author.Name) + articleOverhead); err != nil {
		return err
	}
	if a.n > 0 {
		a.buf = append(a.buf, ',')
	}
	a.buf = art.appendJSON(a.buf)
	a.n++
	return a.fits()
}

// room makes the buffer's capacity need bytes or more, growing it and the
// share together, at once or not at all: ErrPageTooLarge past
// MaxListBytes, respbudget.ErrBusy when the budget has no room now. The
// buffer doubles, but no further than the page is reckoned to need from
// its articles so far, so that a page of like articles ends close to its
// size.
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
	if err := a.share.TryGrow(int64(c)); err != nil {
		return err
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
	if c := int64(cap(a.buf)); c > a.share.Size() {
		if a.max > 0 {
			c = min(c, int64(a.max))
		}
		return a.share.TryGrow(c)
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
	if err := a.room(len(a.buf) + 5*len(path) + tailBytes); err != nil {
		return err
	}
	b, err := appendListTail(a.buf, path, p, total, a.n)
	if err != nil {
		return fmt.Errorf("articles: the links of a list: %w", err)
	}
	a.buf = b
	if err := a.fits(); err != nil {
		return err
	}
	a.share.Shrink(int64(cap(a.buf)))
	return nil
}

// listBudget checks the list settings of cfg and returns the response
// budget (nil when off) and the bound on one answer (0: none).
func listBudget(cfg Config) (*respbudget.Budget, int, error) {
	size, maxList, wait := cfg.ResponseBudget, cfg.MaxListBytes, cfg.ResponseBudgetWait
	if wait < 0 {
		return nil, 0, fmt.Errorf("articles: Config.ResponseBudgetWait %v is negative", wait)
	}
	if maxList == 0 {
		maxList = DefaultMaxListBytes
	}
	switch {
	case size < 0 && maxList < 0:
		return nil, 0, nil
	case size < 0:
		return nil, int(maxList), nil
	case maxList < 0:
		return nil, 0, errors.New("articles: a response budget needs a bound on each list answer: set Config.MaxListBytes, or turn the budget off with a negative Config.ResponseBudget")
	case size == 0:
		size = DefaultResponseBudget
	}
	if wait == 0 {
		wait = DefaultResponseBudgetWait
	}
	first := min(firstListShare, maxList)
	switch {
	case first > size/4:
		return nil, 0, fmt.Errorf("articles: the quarter of Config.ResponseBudget %d kept for first shares cannot hold one of %d bytes", size, first)
	case maxList > size-size/4:
		return nil, 0, fmt.Errorf("articles: Config.MaxListBytes %d is larger than the three quarters of Config.ResponseBudget %d that large pages share, which could never hold such a page", maxList, size)
	}
	b, err := respbudget.New(respbudget.Config{Size: size, FirstShare: first, MaxShare: maxList, Wait: wait})
	return b, int(maxList), err
}
