package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// scriptDB answers listPublished with the next page of pages and
// countPublished with the next count of counts, and records the
// statements it ran ("page", "count") and the rows it closed.
type scriptDB struct {
	pages  []int // the articles of each page, each row carrying total
	totals []int64
	counts []int64
	ran    *[]string
	closed int
}

func (d *scriptDB) Query(_ context.Context, sql string, _ ...any) (Rows, error) {
	if sql != listPublished || len(d.pages) == 0 {
		return nil, fmt.Errorf("unexpected query %.40q", sql)
	}
	*d.ran = append(*d.ran, "page")
	n, total := d.pages[0], d.totals[0]
	d.pages, d.totals = d.pages[1:], d.totals[1:]
	return &scriptRows{left: n, total: total, db: d}, nil
}

func (d *scriptDB) QueryRow(_ context.Context, sql string, _ ...any) Row {
	if sql != countPublished || len(d.counts) == 0 {
		return errRow{fmt.Errorf("unexpected query %.40q", sql)}
	}
	*d.ran = append(*d.ran, "count")
	n := d.counts[0]
	d.counts = d.counts[1:]
	return countRow(n)
}

func (d *scriptDB) Exec(context.Context, string, ...any) (int64, error) {
	return 0, errors.New("unexpected Exec")
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type countRow int64

func (r countRow) Scan(dest ...any) error {
	*dest[0].(*int64) = int64(r)
	return nil
}

// scriptRows yields left rows of listPublished.
type scriptRows struct {
	left  int
	total int64
	db    *scriptDB
}

func (r *scriptRows) Next() bool {
	r.left--
	return r.left >= 0
}

func (r *scriptRows) Scan(dest ...any) error {
	*dest[0].(*int64) = r.total
	*dest[1].(*int64) = int64(100 + r.left)
	*dest[2].(*int64) = 1
	*dest[3].(*string), *dest[4].(*string) = "t", "b"
	*dest[5].(*bool) = true
	*dest[6].(*time.Time), *dest[7].(*time.Time) = time.Unix(0, 0), time.Unix(0, 0)
	*dest[8].(*string) = "Ada"
	return nil
}

func (r *scriptRows) Err() error { return nil }
func (r *scriptRows) Close()     { r.db.closed++ }

// TestListPublishedEmptyPage walks the ways of an empty page: a count that
// leaves it empty is the answer; a count that says the list grew past it
// reads it again; when the end keeps moving, a snapshot transaction.
func TestListPublishedEmptyPage(t *testing.T) {
	for _, c := range []struct {
		name                    string
		reader, snapshot        scriptDB
		wantTotal, wantArticles int64
		wantRan                 []string
	}{{
		name:      "a page with articles",
		reader:    scriptDB{pages: []int{2}, totals: []int64{7}},
		wantTotal: 7, wantArticles: 2, wantRan: []string{"page"},
	}, {
		name:      "past the end",
		reader:    scriptDB{pages: []int{0}, totals: []int64{0}, counts: []int64{5}},
		wantTotal: 5, wantArticles: 0, wantRan: []string{"page", "count"},
	}, {
		name:      "the list grew past the page",
		reader:    scriptDB{pages: []int{0, 2}, totals: []int64{0, 7}, counts: []int64{7}},
		wantTotal: 7, wantArticles: 2, wantRan: []string{"page", "count", "page"},
	}, {
		name:      "the end keeps moving",
		reader:    scriptDB{pages: []int{0, 0}, totals: []int64{0, 0}, counts: []int64{7, 6}},
		snapshot:  scriptDB{pages: []int{1}, totals: []int64{6}, counts: []int64{6}},
		wantTotal: 6, wantArticles: 1, wantRan: []string{"page", "count", "page", "count", "snapshot", "count", "page"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			var ran []string
			c.reader.ran, c.snapshot.ran = &ran, &ran
			store := Articles{&core{readDB: &c.reader, snapshot: func(_ context.Context, fn func(DB) error) error {
				ran = append(ran, "snapshot")
				return fn(&c.snapshot)
			}}, defaultStatements}
			var page articles.Page
			err := store.ListPublished(context.Background(), 2, 5, &page)
			if err != nil || page.Total != c.wantTotal || int64(len(page.Articles)) != c.wantArticles {
				t.Errorf("ListPublished = total %d, %d articles, error %v; want %d, %d, nil", page.Total, len(page.Articles), err, c.wantTotal, c.wantArticles)
			}
			if !slices.Equal(ran, c.wantRan) {
				t.Errorf("statements run: %v, want %v", ran, c.wantRan)
			}
		})
	}
}

// TestListPublishedStops: a page that outgrows its bound ends the list at
// once: the rows are closed, nothing more runs, and the error wraps
// Page.Add's.
func TestListPublishedStops(t *testing.T) {
	var ran []string
	db := scriptDB{pages: []int{3}, totals: []int64{9}, ran: &ran}
	store := Articles{&core{readDB: &db}, defaultStatements}
	page := articles.Page{MaxBytes: 7} // each row counts 5 bytes: "t", "b" and "Ada"
	err := store.ListPublished(context.Background(), 3, 0, &page)
	if !errors.Is(err, articles.ErrPageTooLarge) || len(page.Articles) != 1 || page.Total != 0 {
		t.Errorf("ListPublished past Page.MaxBytes = %d articles, total %d, error %v; want 1, 0 and ErrPageTooLarge", len(page.Articles), page.Total, err)
	}
	if !slices.Equal(ran, []string{"page"}) || db.closed != 1 {
		t.Errorf("statements run: %v, rows closed %d times; want [page] and once", ran, db.closed)
	}
}

// TestStatementsOverUsersTable checks that the statements over a table of
// users of a service's own name it, and the kit's users nowhere: every
// field of articleStatements, read by reflection, so that a statement
// added later is checked too.
func TestStatementsOverUsersTable(t *testing.T) {
	q := UsersTable{Table: "app.members", ID: "member_id", Name: "display_name"}.statements()
	v := reflect.ValueOf(q)
	for i := range v.NumField() {
		name, text := v.Type().Field(i).Name, v.Field(i).String()
		if strings.Contains(text, "users") || strings.Contains(text, "u.name") || !strings.Contains(text, `"app"."members"`) {
			t.Errorf("%s over members:\n%s", name, text)
		}
	}
	if !strings.Contains(q.listPublished, `JOIN "app"."members" AS u ON u."member_id" = a.user_id`) || !strings.Contains(q.listPublished, `u."display_name"`) {
		t.Errorf("listPublished over members:\n%s", q.listPublished)
	}
	if d := (UsersTable{Table: "users"}).statements(); d != defaultStatements {
		t.Errorf("the statements over users named explicitly differ from the kit's: %+v", d)
	}
}

// recordDB records the text of every statement run on it: its Query
// answers no rows, its QueryRow a row that scans 1 into each *int64 (the
// counts) and fails on anything else, its Exec changes nothing.
type recordDB struct{ ran *[]string }

func (d recordDB) Query(_ context.Context, sql string, _ ...any) (Rows, error) {
	*d.ran = append(*d.ran, sql)
	return &scriptRows{db: &scriptDB{}}, nil
}

func (d recordDB) QueryRow(_ context.Context, sql string, _ ...any) Row {
	*d.ran = append(*d.ran, sql)
	return onesRow{}
}

func (d recordDB) Exec(_ context.Context, sql string, _ ...any) (int64, error) {
	*d.ran = append(*d.ran, sql)
	return 0, nil
}

type onesRow struct{}

func (onesRow) Scan(dest ...any) error {
	for _, d := range dest {
		n, ok := d.(*int64)
		if !ok {
			return errors.New("no row")
		}
		*n = 1
	}
	return nil
}

// TestStoreOverUsersTableRunsNoUsers runs every method of a store of
// articles over another table, each way it can go (a list whose end keeps
// moving reaches the snapshot; a keyset page from the top, after and
// before a position; a delete that deletes nothing explains why), and
// checks that no statement it ran names the kit's users.
func TestStoreOverUsersTableRunsNoUsers(t *testing.T) {
	var ran []string
	db := recordDB{&ran}
	c := &core{readDB: db, writeDB: db,
		snapshot:  func(_ context.Context, fn func(DB) error) error { return fn(db) },
		violation: func(error) Violation { return NoViolation },
		bindTime:  func(t time.Time) any { return t },
		now:       time.Now,
	}
	s := Articles{c, UsersTable{Table: "members", Name: "display_name"}.statements()}
	ctx := context.Background()
	_, _ = s.FindPublished(ctx, 1)
	_, _ = s.CreateArticle(ctx, articles.NewArticle{UserID: 1, Title: "t", Body: "b"})
	_ = s.DeleteArticle(ctx, 1, 1)
	_ = s.ListPublished(ctx, 10, 0, new(articles.Page))
	from := &articles.Position{CreatedAt: time.Unix(0, 0), ID: 1}
	for _, seek := range []articles.Seek{{Limit: 2}, {From: from, Limit: 2}, {From: from, Backward: true, Limit: 2}} {
		if err := s.ListPublishedFrom(ctx, seek, new(articles.Page)); err != nil {
			t.Errorf("ListPublishedFrom(%+v): %v", seek, err)
		}
	}
	distinct := map[string]bool{}
	for _, sql := range ran {
		distinct[sql] = true
		if strings.Contains(sql, "users") || strings.Contains(sql, "u.name") {
			t.Errorf("a store over members ran:\n%s", sql)
		}
	}
	// find, insert, delete, explain, page, count, and the three keyset
	// pages: every statement of Articles.
	if len(distinct) != 9 {
		t.Errorf("%d distinct statements ran, want 9:\n%s", len(distinct), strings.Join(ran, "\n---\n"))
	}
}
