package rest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The kit store's statements for a list, copied word for word from
// sqlstore (countPublished, listPublished), which another
// module cannot import. TestStatementsMatchKit compares them with the file.
const (
	countPublished = `SELECT count(*) FROM articles WHERE published = TRUE`

	listPublished = `SELECT (SELECT count(*) FROM articles WHERE published = TRUE), a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name
FROM articles AS a JOIN users AS u ON u.id = a.user_id
WHERE a.published = TRUE
ORDER BY a.created_at DESC, a.id DESC
LIMIT $1 OFFSET $2`
)

// timeFormat is Laravel's timestamp layout, articles.TimeFormat.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// NewBareSQL returns the bare handler of GET /api/articles over db, opened
// with the modernc.org/sqlite driver, mounted on an http.ServeMux at Path.
func NewBareSQL(db *sql.DB) http.Handler {
	return mountBare(bare{bareSQL{db}})
}

// NewBarePgx returns the bare handler of GET /api/articles over pool,
// mounted on an http.ServeMux at Path.
func NewBarePgx(pool *pgxpool.Pool) http.Handler {
	return mountBare(bare{barePgx{pool}})
}

func mountBare(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	return mux
}

// bareArticle is an article as it goes on the wire.
type bareArticle struct {
	ID        int64      `json:"id"`
	UserID    int64      `json:"user_id"`
	Title     string     `json:"title"`
	Body      string     `json:"body"`
	Published bool       `json:"published"`
	CreatedAt string     `json:"created_at"`
	UpdatedAt string     `json:"updated_at"`
	Author    bareAuthor `json:"author"`
}

type bareAuthor struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// bareList is the answer: Laravel's paginated resource collection.
type bareList struct {
	Data  []bareArticle `json:"data"`
	Links struct {
		First string  `json:"first"`
		Last  string  `json:"last"`
		Prev  *string `json:"prev"`
		Next  *string `json:"next"`
	} `json:"links"`
	Meta struct {
		CurrentPage int64  `json:"current_page"`
		From        *int64 `json:"from"`
		LastPage    int64  `json:"last_page"`
		Path        string `json:"path"`
		PerPage     int64  `json:"per_page"`
		To          *int64 `json:"to"`
		Total       int64  `json:"total"`
	} `json:"meta"`
}

// scanner is the Scan of *sql.Row, *sql.Rows, pgx.Row and pgx.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanArticle reads one row of listPublished: the total, then the article.
func scanArticle(row scanner) (int64, bareArticle, error) {
	var (
		total            int64
		a                bareArticle
		created, updated time.Time
	)
	err := row.Scan(&total, &a.ID, &a.UserID, &a.Title, &a.Body, &a.Published, &created, &updated, &a.Author.Name)
	a.Author.ID = a.UserID
	a.CreatedAt = created.UTC().Format(timeFormat)
	a.UpdatedAt = updated.UTC().Format(timeFormat)
	return total, a, err
}

// lister runs the statements of a list with one driver: the page with
// its total, and a count when the page is empty.
type lister interface {
	list(ctx context.Context, page, perPage int64) (int64, []bareArticle, error)
}

// bare serves the list through a lister; only the driver code differs.
type bare struct{ lister }

func (h bare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	page, perPage, ok := readParams(w, r)
	if !ok {
		return
	}
	total, items, err := h.list(r.Context(), page, perPage)
	if err != nil {
		writeError(w)
		return
	}
	writeList(w, r, page, perPage, total, items)
}

// bareSQL lists from database/sql.
type bareSQL struct{ db *sql.DB }

func (h bareSQL) list(ctx context.Context, page, perPage int64) (int64, []bareArticle, error) {
	rows, err := h.db.QueryContext(ctx, listPublished, int(perPage), (page-1)*perPage)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	total, items, err := scanAll(rows)
	if err == nil && len(items) == 0 {
		err = h.db.QueryRowContext(ctx, countPublished).Scan(&total)
	}
	return total, items, err
}

// scanAll reads every row of listPublished, for *sql.Rows and pgx.Rows.
func scanAll(rows interface {
	scanner
	Next() bool
	Err() error
}) (int64, []bareArticle, error) {
	var total int64
	items := []bareArticle{}
	for rows.Next() {
		t, a, err := scanArticle(rows)
		if err != nil {
			return 0, nil, err
		}
		total = t
		items = append(items, a)
	}
	return total, items, rows.Err()
}

// barePgx lists from a pgx pool.
type barePgx struct{ pool *pgxpool.Pool }

func (h barePgx) list(ctx context.Context, page, perPage int64) (int64, []bareArticle, error) {
	rows, err := h.pool.Query(ctx, listPublished, int(perPage), (page-1)*perPage)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	total, items, err := scanAll(rows)
	if err == nil && len(items) == 0 {
		err = h.pool.QueryRow(ctx, countPublished).Scan(&total)
	}
	return total, items, err
}

// readParams reads page (default 1, at least 1, at most 1e15 so that the
// offset cannot overflow) and per_page (default 15, 1 to 100). A GET or
// HEAD with bad parameters gets a 422, another method a 405; then ok is
// false.
func readParams(w http.ResponseWriter, r *http.Request) (page, perPage int64, ok bool) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeMessage(w, http.StatusMethodNotAllowed, "Method not allowed.")
		return 0, 0, false
	}
	q := r.URL.Query()
	page, perPage = 1, 15
	if v, found := q["page"]; found {
		n, err := strconv.ParseInt(v[len(v)-1], 10, 64)
		if err != nil || n < 1 || n > 1e15 {
			writeMessage(w, http.StatusUnprocessableEntity, "Bad page.")
			return 0, 0, false
		}
		page = n
	}
	if v, found := q["per_page"]; found {
		n, err := strconv.ParseInt(v[len(v)-1], 10, 64)
		if err != nil || n < 1 || n > 100 {
			writeMessage(w, http.StatusUnprocessableEntity, "Bad per_page.")
			return 0, 0, false
		}
		perPage = n
	}
	return page, perPage, true
}

// writeList writes the envelope of a page of the list.
func writeList(w http.ResponseWriter, r *http.Request, page, perPage, total int64, items []bareArticle) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path := scheme + "://" + r.Host + r.URL.EscapedPath()
	link := func(n int64) string {
		return path + "?page=" + strconv.FormatInt(n, 10) + "&per_page=" + strconv.FormatInt(perPage, 10)
	}
	lastPage := max((total+perPage-1)/perPage, 1)

	var out bareList
	out.Data = items
	out.Links.First, out.Links.Last = link(1), link(lastPage)
	if page > 1 {
		prev := link(page - 1)
		out.Links.Prev = &prev
	}
	if page < lastPage {
		next := link(page + 1)
		out.Links.Next = &next
	}
	out.Meta.CurrentPage, out.Meta.LastPage, out.Meta.Path = page, lastPage, path
	out.Meta.PerPage, out.Meta.Total = perPage, total
	if len(items) > 0 {
		from, to := (page-1)*perPage+1, (page-1)*perPage+int64(len(items))
		out.Meta.From, out.Meta.To = &from, &to
	}
	writeJSON(w, http.StatusOK, out)
}

func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Message string `json:"message"`
	}{msg})
}

func writeError(w http.ResponseWriter) {
	writeMessage(w, http.StatusInternalServerError, "Internal server error.")
}

// writeJSON writes v as JSON as the kit does: no HTML escaping (like PHP's
// json_encode), no trailing newline, with a Content-Length.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"message":"Internal server error."}` + "\n")
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
