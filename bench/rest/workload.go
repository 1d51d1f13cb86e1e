package rest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// The workload.
const (
	// Articles is the number of published articles Seed stores.
	Articles = 200
	// Authors is the number of users who write them, in turn.
	Authors = 10
	// Path is the collection both handlers serve.
	Path = "/api/articles"
	// Target is the request the benchmarks send: the first page of 15.
	Target = Path + "?per_page=15&page=1"
)

// Store is what Seed writes to: the kit's stores implement it.
type Store interface {
	articles.Store
	auth.UserStore
}

// kitStore is the kit's users and articles of one database as a Store.
type kitStore struct {
	*sqlstore.Users
	*sqlstore.Articles
}

// seedEpoch is the creation time of the oldest seeded article.
var seedEpoch = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// words make the seeded titles and bodies; plain ASCII prose with the odd
// apostrophe and ampersand, as articles are.
var words = strings.Fields(`the a query page handler store row column index
join count offset limit author article draft review release schema migration
server client request response latency throughput cache pool connection driver
benchmark profile allocation buffer encoder decoder timestamp cursor
Go's R&D team's`)

// Seed stores the workload in s, which must hold no published article:
// Authors users, then Articles published articles written by them in turn,
// one a minute apart from seedEpoch (plus a few microseconds, so that
// timestamps carry six significant fractional digits), each with a title of
// about 50 characters and a body of about 600. The data is the same on
// every run.
func Seed(ctx context.Context, s Store) error {
	var page articles.Page
	if err := s.ListPublished(ctx, 1, 0, &page); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	if page.Total != 0 {
		return errors.New("seed: the database already holds published articles")
	}
	users := make([]int64, Authors)
	for i := range users {
		n := strconv.Itoa(i + 1)
		id, err := s.CreateUser(ctx, "Author "+n, "author"+n+"@bench.test", []byte("not a password hash"))
		if err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		users[i] = id
	}
	for i := range Articles {
		_, err := s.CreateArticle(ctx, articles.NewArticle{
			UserID:    users[i%Authors],
			Title:     "Article " + strconv.Itoa(i+1) + ": " + prose(i, 40),
			Body:      prose(i*7+3, 600),
			Published: true,
			CreatedAt: seedEpoch.Add(time.Duration(i)*time.Minute + time.Duration(i*1237)*time.Microsecond),
		})
		if err != nil {
			return fmt.Errorf("seed: article %d: %w", i+1, err)
		}
	}
	return nil
}

// prose returns at least n characters of words, starting at a word chosen by
// seed, ending with a full stop.
func prose(seed, n int) string {
	var b strings.Builder
	for i := seed; b.Len() < n; i += 7 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
	}
	b.WriteByte('.')
	return b.String()
}
