package articles

import (
	"context"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
)

// Store keeps articles. The sub-packages pgstore and sqlitestore implement
// it, and storetest checks any implementation. Implementations are safe for
// concurrent use.
//
// Reads see published articles only. A missing article is an error that
// wraps [apierror.ErrNotFound].
type Store interface {
	// ListPublished calls yield with up to limit published articles,
	// newest first (created_at descending, then id descending), after
	// skipping offset of them, each with its author, and returns the
	// number of published articles in all. limit must be at least 1 and
	// offset at least 0.
	//
	// The articles and the total are one snapshot of the store: yield is
	// called exactly min(limit, max(total-offset, 0)) times, whatever
	// writers do meanwhile. The articles are read as yield takes them, so
	// a page is never held in memory at once; yield runs while the store
	// holds a database connection (and, for some pages, a read-only
	// transaction), so it must not call the store. An error from yield
	// stops the list, and ListPublished returns an error that wraps it.
	//
	// It costs at most three queries whatever limit is: the
	// implementations in this module read the page and the total in one
	// statement; when the page comes back empty, which says nothing of the
	// total, they count in a read-only transaction and, should the page
	// have filled meanwhile, read it again there.
	ListPublished(ctx context.Context, limit int, offset int64, yield func(Article) error) (total int64, err error)

	// FindPublished returns the published article id with its author. When
	// there is no such article, or it is not published, the error wraps
	// [apierror.ErrNotFound].
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
	//   - [apierror.ErrNotFound] when there is no article id.
	DeleteArticle(ctx context.Context, id, userID int64) error
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

// The errors a Store reports besides [apierror.ErrNotFound]. Test for them
// with errors.Is: stores wrap them with detail for the log.
//
// Each also carries what clients should see, so that
// [apierror.Presenter] answers it correctly when a resolver or handler
// returns it unchanged: ErrUnknownUser is a 401 "Unauthenticated." and
// ErrNotAuthor a 403 "You can only delete your own articles.". The
// articles Handler answers them through the same presenter.
var (
	// ErrUnknownUser means the acting user does not exist (any more): a
	// valid token for a deleted user.
	ErrUnknownUser error = &storeError{
		text:   "articles: the user does not exist",
		client: apierror.Unauthenticated(""),
	}
	// ErrNotAuthor means the user may not change another user's article.
	ErrNotAuthor error = &storeError{
		text:   "articles: the article belongs to another user",
		client: apierror.Forbidden(MessageNotAuthor),
	}
)

// MessageNotAuthor is the message of the 403 answering a delete of another
// user's article.
const MessageNotAuthor = "You can only delete your own articles."

// storeError is an immutable sentinel with log text and a client view.
type storeError struct {
	text   string // Error(), for logs
	client *apierror.Error
}

func (e *storeError) Error() string { return e.text }

// Unwrap returns the client-safe error, which is what [apierror.Presenter]
// shows. It is shared: nobody may change it.
func (e *storeError) Unwrap() error { return e.client }
