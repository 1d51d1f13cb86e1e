package articles

import (
	"context"
	"fmt"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
)

// Store keeps articles. The stores of the kit's postgres and sqlite
// packages implement it, and storetest checks any implementation. Implementations are safe for
// concurrent use.
//
// Reads see published articles only. A missing article is an error that
// wraps [errcode.ErrNotFound].
type Store interface {
	// ListPublished reads up to limit published articles, newest first
	// (created_at descending, then id descending), after skipping offset
	// of them, each with its author, into page: it calls page.Add with
	// each in turn as it reads it, and sets page.Total to the number of
	// published articles in all. limit must be at least 1 and offset at
	// least 0.
	//
	// The articles and the total are one snapshot of the store: Add is
	// called exactly min(limit, max(total-offset, 0)) times, whatever
	// writers do meanwhile. Add never waits, so the store holds its
	// database connection (and, for some pages, a read-only transaction)
	// for the time it takes to read the page and no longer: the caller
	// does nothing with the page, such as sending it to a client, before
	// ListPublished has returned. An error from Add (the page outgrew its
	// bound) stops the list: ListPublished closes its rows and returns an
	// error that wraps it.
	//
	// It costs at most three queries whatever limit is: the
	// implementations in this module read the page and the total in one
	// statement; when the page comes back empty, which says nothing of the
	// total, they count in a read-only transaction and, should the page
	// have filled meanwhile, read it again there.
	ListPublished(ctx context.Context, limit int, offset int64, page *Page) error

	// ListPublishedFrom reads a keyset page of published articles, each
	// with its author, into page (Add, as ListPublished does; Total stays
	// 0): up to s.Limit articles that come after s.From in the list's
	// order (newest first: created_at descending, then id descending),
	// from the top of the list when From is nil; or, when s.Backward is
	// set, the s.Limit articles nearest to s.From that come before it.
	// Either way page.Add receives them in the list's order, newest
	// first. s.Limit must be at least 1, and Backward needs a From.
	//
	// It is one statement, with no OFFSET: a WHERE on (created_at, id)
	// that the index on (published, created_at) serves. Articles created
	// or deleted meanwhile move no other article: paging from the
	// positions of the articles of each page, a client sees every
	// article that stays published exactly once.
	ListPublishedFrom(ctx context.Context, s Seek, page *Page) error

	// FindPublished returns the published article id with its author. When
	// there is no such article, or it is not published, the error wraps
	// [errcode.ErrNotFound].
	FindPublished(ctx context.Context, id int64) (Article, error)

	// CreateArticle stores a new article and returns it with its id and
	// author. When the user in.UserID does not exist the error wraps
	// [ErrUnknownUser] and nothing is stored; the check and the insert are
	// one atomic statement.
	CreateArticle(ctx context.Context, in NewArticle) (Article, error)

	// DeleteArticle deletes article id on behalf of user userID. The
	// author may delete an article whether or not it is published. The
	// error wraps
	//   - [ErrUnknownUser] when the user userID does not exist;
	//   - [ErrNotAuthor] when the article, published or not, belongs to
	//     another user;
	//   - [errcode.ErrNotFound] when there is no article id.
	DeleteArticle(ctx context.Context, id, userID int64) error
}

// Page is one page of the list of published articles, as
// [Store.ListPublished] reads it. The zero Page is ready for use: it keeps
// the articles in Articles, without bound. A Page is for one list.
//
// The pages of a [Handler] keep the JSON of their list answer instead,
// bounded by [Config.MaxListBytes] and within the handler's response
// budget (see [Config.ResponseBudget]); their Articles stay empty.
type Page struct {
	// Articles are the articles added, in order.
	Articles []Article
	// Total is the number of published articles in all, of the same
	// snapshot as the page; the store sets it.
	Total int64
	// MaxBytes, when positive, bounds the page: Add refuses an article,
	// with an error that wraps [ErrPageTooLarge], once the titles, bodies
	// and author names of the articles added would pass it.
	MaxBytes int64

	bytes  int64       // of the articles added, as MaxBytes counts them
	answer *listAnswer // when set, takes the articles in Articles' place
}

// Add adds a, the next article of the page. It returns at once, never
// waiting for anything: a store calls it with each article as it reads it,
// while it holds its database connection. An error (the page outgrew its
// bound, or the response budget has no room for it now) ends the page:
// the store stops reading and returns it wrapped.
func (p *Page) Add(a Article) error {
	if p.answer != nil {
		return p.answer.add(a)
	}
	if p.MaxBytes > 0 {
		n := int64(len(a.Title) + len(a.Body) + len(a.Author.Name))
		if p.bytes+n > p.MaxBytes {
			return fmt.Errorf("articles: a page of more than %d bytes: %w", p.MaxBytes, ErrPageTooLarge)
		}
		p.bytes += n
	}
	p.Articles = append(p.Articles, a)
	return nil
}

// Position is the place of an article in the list of published
// articles: its created_at (UTC, to the microsecond, as stored) and id.
type Position struct {
	CreatedAt time.Time
	ID        int64
}

// PositionOf returns a's position in the list.
func PositionOf(a Article) Position { return Position{CreatedAt: a.CreatedAt, ID: a.ID} }

// Seek is a keyset page, as [Store.ListPublishedFrom] reads it.
type Seek struct {
	// From is the position the page starts past (not included); nil
	// means the top of the list.
	From *Position
	// Backward reads the articles before From (newer ones) instead of
	// after it.
	Backward bool
	// Limit is the most articles to read.
	Limit int
}

// NewArticle is what [Store.CreateArticle] stores.
type NewArticle struct {
	UserID    int64 // the author; must exist
	Title     string
	Body      string
	Published bool
	// CreatedAt becomes both created_at and updated_at, stored in UTC and
	// truncated to microseconds. The zero value means the store's clock.
	CreatedAt time.Time
}

// The errors a Store reports besides [errcode.ErrNotFound]. Test for them
// with errors.Is: stores wrap them with detail for the log.
//
// Each also carries what clients should see, so that
// [github.com/gqlkit/gqlkit/errors.Presenter] answers it correctly when a resolver or handler
// returns it unchanged: ErrUnknownUser is a 401 "Unauthenticated.",
// ErrNotAuthor a 403 "You can only delete your own articles." and
// ErrPageTooLarge a 400 with [MessagePageTooLarge]. The articles Handler
// answers them through the same presenter.
var (
	// ErrUnknownUser means the acting user does not exist (any more): a
	// valid token for a deleted user.
	ErrUnknownUser error = &storeError{
		text:   "articles: the user does not exist",
		client: errcode.Unauthenticated(""),
	}
	// ErrNotAuthor means the user may not change another user's article.
	ErrNotAuthor error = &storeError{
		text:   "articles: the article belongs to another user",
		client: errcode.Forbidden(MessageNotAuthor),
	}
	// ErrPageTooLarge means a page of the list outgrew its bound
	// ([Page.MaxBytes], or a Handler's [Config.MaxListBytes]): the client
	// should ask for fewer articles per page. Clients see a 400
	// RESPONSE_TOO_LARGE with [MessagePageTooLarge].
	ErrPageTooLarge error = &storeError{
		text:   "articles: the page is larger than its bound",
		client: errcode.New(errcode.CodeResponseTooLarge, MessagePageTooLarge),
	}
)

// MessageNotAuthor is the message of the 403 answering a delete of another
// user's article.
const MessageNotAuthor = "You can only delete your own articles."

// storeError is an immutable sentinel with log text and a client view.
type storeError struct {
	text   string // Error(), for logs
	client *errcode.Error
}

func (e *storeError) Error() string { return e.text }

// Unwrap returns the client-safe error, which is what [github.com/gqlkit/gqlkit/errors.Presenter]
// shows. It is shared: nobody may change it.
func (e *storeError) Unwrap() error { return e.client }
