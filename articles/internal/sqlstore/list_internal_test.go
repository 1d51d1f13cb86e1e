package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// scriptDB answers listPublished with the next page of pages and
// countPublished with the next count of counts, and records the
// statements it ran ("page", "count").
type scriptDB struct {
	pages  []int // the articles of each page, each row carrying total
	totals []int64
	counts []int64
	ran    *[]string
}

func (d *scriptDB) Query(_ context.Context, sql string, _ ...any) (Rows, error) {
	if sql != listPublished || len(d.pages) == 0 {
		return nil, fmt.Errorf("unexpected query %.40q", sql)
	}
	*d.ran = append(*d.ran, "page")
	n, total := d.pages[0], d.totals[0]
	d.pages, d.totals = d.pages[1:], d.totals[1:]
	return &scriptRows{left: n, total: total}, nil
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
func (r *scriptRows) Close()     {}

// TestListPublishedEmptyPage walks the ways of an empty page: a count that
// leaves it empty is the answer; a count that says the list grew past it
// reads it again; when the end keeps moving, a snapshot transaction.
func TestListPublishedEmptyPage(t *testing.T) {
	for _, c := range []struct {
		name                 string
		reader, snapshot     scriptDB
		wantTotal, wantCalls int64
		wantRan              []string
	}{{
		name:      "a page with articles",
		reader:    scriptDB{pages: []int{2}, totals: []int64{7}},
		wantTotal: 7, wantCalls: 2, wantRan: []string{"page"},
	}, {
		name:      "past the end",
		reader:    scriptDB{pages: []int{0}, totals: []int64{0}, counts: []int64{5}},
		wantTotal: 5, wantCalls: 0, wantRan: []string{"page", "count"},
	}, {
		name:      "the list grew past the page",
		reader:    scriptDB{pages: []int{0, 2}, totals: []int64{0, 7}, counts: []int64{7}},
		wantTotal: 7, wantCalls: 2, wantRan: []string{"page", "count", "page"},
	}, {
		name:      "the end keeps moving",
		reader:    scriptDB{pages: []int{0, 0}, totals: []int64{0, 0}, counts: []int64{7, 6}},
		snapshot:  scriptDB{pages: []int{1}, totals: []int64{6}, counts: []int64{6}},
		wantTotal: 6, wantCalls: 1, wantRan: []string{"page", "count", "page", "count", "snapshot", "count", "page"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			var ran []string
			c.reader.ran, c.snapshot.ran = &ran, &ran
			core := Core{Reader: &c.reader, ReadSnapshot: func(_ context.Context, fn func(DB) error) error {
				ran = append(ran, "snapshot")
				return fn(&c.snapshot)
			}}
			var calls int64
			total, err := core.ListPublished(context.Background(), 2, 5, func(articles.Article) error {
				calls++
				return nil
			})
			if err != nil || total != c.wantTotal || calls != c.wantCalls {
				t.Errorf("ListPublished = total %d, %d articles, error %v; want %d, %d, nil", total, calls, err, c.wantTotal, c.wantCalls)
			}
			if !slices.Equal(ran, c.wantRan) {
				t.Errorf("statements run: %v, want %v", ran, c.wantRan)
			}
		})
	}
}
