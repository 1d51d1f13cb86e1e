package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// Header names.
const (
	// KeyHeader is the request header that carries a key.
	KeyHeader = "Idempotency-Key"
	// ReplayedHeader is set to "true" on an answer that was recorded
	// earlier and is sent again.
	ReplayedHeader = "Idempotent-Replayed"
)

// Defaults of [Config].
const (
	// DefaultTTL is how long an answer stays recorded when [Config.TTL]
	// is zero.
	DefaultTTL = 24 * time.Hour
	// DefaultMaxBodyBytes caps the body of a request with a key (1 MiB)
	// when [Config.MaxBodyBytes] is zero.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultMaxRecordBytes caps the body of a recorded answer (4 MiB)
	// when [Config.MaxRecordBytes] is zero: room for the largest answer
	// that echoes a request of DefaultMaxBodyBytes, such as a created
	// article, whose JSON may be up to three times as long as the request
	// (a byte that is not UTF-8 is read as U+FFFD and written back as
	// three).
	DefaultMaxRecordBytes = 4 << 20
	// DefaultLease is how long a key stays held after its request last
	// renewed its claim, when [Config.Lease] is zero: how long a retry
	// waits, answered 409, when the process serving the first request
	// died.
	DefaultLease = 5 * time.Second
	// DefaultStallTimeout is how long a client may take none of a
	// recorded answer being sent before it is cut off, when
	// [Config.StallTimeout] is zero: the same as graphqlhttp's and
	// articles' default.
	DefaultStallTimeout = 5 * time.Second
	// MaxKeyLength is the longest key accepted.
	MaxKeyLength = 255
)

// Messages and codes of the middleware's own answers.
const (
	MessageBadKey = "The Idempotency-Key header must be one value of 1 to 255 printable ASCII characters."
	MessageReused = "This Idempotency-Key was already used with a different request."
	MessageInUse  = "A request with this Idempotency-Key is still in progress; try again shortly."
	// MessageTooLarge answers a write whose answer is over
	// [Config.MaxRecordBytes].
	MessageTooLarge = "The answer to this request is too large to record under an Idempotency-Key, so nothing was written; send it without the key, or ask for less."
	// Code of the 422 that answers a key reused with another request.
	CodeKeyReused errcode.Code = "IDEMPOTENCY_KEY_REUSED"
	// Code of the 409 that answers a key held by a request in flight.
	CodeKeyInUse errcode.Code = "IDEMPOTENCY_KEY_IN_USE"
	// Code of the 422 that answers a write whose answer is too large to
	// record.
	CodeAnswerTooLarge errcode.Code = "IDEMPOTENCY_ANSWER_TOO_LARGE"
)

// Config configures [Middleware]. Store is required; the zero value of
// every other field means the documented default.
type Config struct {
	// Store keeps the keys and the recorded answers.
	Store Store

	// Subject names the caller a request's key belongs to. A request for
	// which it reports false passes through without key handling (the
	// handler then answers it as if it had no key, typically 401). nil
	// means the user that auth's middlewares (or auth.WithSubject) put in
	// the request's context, as auth.Subject spells it (an int64 id in
	// decimal, a UUID as it is), so the middleware goes inside them.
	Subject func(r *http.Request) (string, bool)

	// TTL is how long an answer stays recorded; 0 means DefaultTTL.
	TTL time.Duration

	// MaxBodyBytes caps the body of a request with a key, which the
	// middleware reads to fingerprint it; a larger one is a 413. 0 means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// MaxRecordBytes caps the body of an answer to be recorded, which
	// the middleware holds in memory until it is recorded. A write whose
	// answer is larger is undone and answered 422
	// IDEMPOTENCY_ANSWER_TOO_LARGE: a retry would fail alike, and an
	// answer that was sent but not recorded could not be replayed. The
	// handler's Write that passes the cap (or the first, when its
	// Content-Length is over it) fails, and nothing more is held. 0
	// means DefaultMaxRecordBytes.
	MaxRecordBytes int

	// Lease is how long a key stays held after its request last renewed
	// its claim; the middleware renews it every Lease/3 while the handler
	// runs, so it only ends on its own when the process dies. It also
	// bounds a claim's transaction: with a SQL store, a request's handler
	// that returns within two thirds of Lease of its first write is
	// sure to have its writes kept; one that takes a whole Lease has them
	// rolled back (see the Tx method of the SQL stores). 0 means
	// DefaultLease.
	Lease time.Duration

	// StallTimeout cuts off a client that stops reading a recorded
	// answer (sent after its commit, or replayed) of 64 KiB or more: it
	// is written 64 KiB at a time, and when the client takes none of a
	// part within StallTimeout, the connection's write deadline is
	// brought forward to now, which ends the write and the connection.
	// An answer that is not recorded is not the middleware's to send: it
	// goes straight to the client, under the handler's own watch. 0
	// means DefaultStallTimeout (5 s); a negative value turns the watch
	// off, leaving the server's WriteTimeout as the only bound.
	StallTimeout time.Duration

	// WriteError answers the middleware's own refusals (400, 409, 413,
	// 422, 500). nil means the REST shape of package errors,
	// apierror.Presenter.WriteREST; a GraphQL endpoint passes
	// graphqlhttp.WriteError.
	WriteError func(w http.ResponseWriter, r *http.Request, err error)

	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// Presenter answers the middleware's refusals when WriteError is nil
	// (its WriteREST), and its Logger receives store failures, with the
	// request's context and its request id (nil: the logger of the
	// request's reqlog.Handler, else slog.Default()); its Hooks map the errors it answers and report the ones it
	// masks, such as a failing store. Pass the value given to the
	// handlers behind the middleware. A WriteError of your own brings its
	// own presenter: graphqlhttp.Handler.WriteError uses
	// graphqlhttp.Config.Presenter.
	Presenter apierror.Presenter
}

// Middleware returns the middleware that applies the package's rules with
// cfg. It fails when cfg.Store is nil or a setting is negative.
func Middleware(cfg Config) (func(http.Handler) http.Handler, error) {
	if cfg.Store == nil {
		return nil, errors.New("idempotency: Config.Store is nil")
	}
	if cfg.TTL < 0 || cfg.MaxBodyBytes < 0 || cfg.MaxRecordBytes < 0 || cfg.Lease < 0 {
		return nil, errors.New("idempotency: TTL, MaxBodyBytes, MaxRecordBytes and Lease must not be negative")
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxRecordBytes == 0 {
		cfg.MaxRecordBytes = DefaultMaxRecordBytes
	}
	if cfg.Lease == 0 {
		cfg.Lease = DefaultLease
	}
	var stallTimeout time.Duration // negative: none
	switch {
	case cfg.StallTimeout == 0:
		stallTimeout = DefaultStallTimeout
	case cfg.StallTimeout > 0:
		stallTimeout = cfg.StallTimeout
	}
	if cfg.Subject == nil {
		cfg.Subject = userSubject
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.WriteError == nil {
		cfg.WriteError = cfg.Presenter.WriteREST
	}
	return func(next http.Handler) http.Handler {
		return &middleware{cfg: cfg, next: next, stall: stallTimeout}
	}, nil
}

// userSubject is the default Config.Subject: auth.Subject, the decimal id
// of an int64 user (as keys were always stored) or the string subject
// (a UUID) of the service's own identity.
func userSubject(r *http.Request) (string, bool) { return auth.Subject(r.Context()) }

type middleware struct {
	cfg   Config
	next  http.Handler
	stall time.Duration // the effective StallTimeout; 0: none
}

func (m *middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	values := r.Header.Values(KeyHeader)
	if len(values) == 0 || (r.Method != http.MethodPost && r.Method != http.MethodPatch) {
		m.next.ServeHTTP(w, r)
		return
	}
	key, ok := parseKey(values)
	if !ok {
		m.cfg.WriteError(w, r, errcode.New(errcode.CodeBadUserInput, MessageBadKey))
		return
	}
	subject, ok := m.cfg.Subject(r)
	if !ok {
		m.next.ServeHTTP(w, r)
		return
	}
	if r.ContentLength > m.cfg.MaxBodyBytes {
		httpjson.RefuseBody(w, r) // so that the 413 reaches the client
		m.cfg.WriteError(w, r, &http.MaxBytesError{Limit: m.cfg.MaxBodyBytes})
		return
	}
	body, err := io.ReadAll(httpjson.LimitBody(w, r, m.cfg.MaxBodyBytes))
	if err != nil {
		// A *http.MaxBytesError is a 413; a broken read, a 400.
		m.cfg.WriteError(w, r, readError(err))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	now := m.cfg.Now()
	k := Key{Subject: subject, Key: key, Fingerprint: fingerprint(r, body),
		Now: now, Expires: now.Add(m.cfg.TTL), LeaseEnd: now.Add(m.cfg.Lease)}
	recorded, claim, err := m.cfg.Store.Claim(r.Context(), k)
	var inUse *InUseError
	switch {
	case errors.As(err, &inUse) && inUse.Fingerprint != nil && !bytes.Equal(inUse.Fingerprint, k.Fingerprint):
		m.cfg.WriteError(w, r, errReused)
	case errors.As(err, &inUse):
		w.Header().Set("Retry-After", "1")
		m.cfg.WriteError(w, r, errInUse)
	case err != nil:
		m.fail(w, r, fmt.Errorf("idempotency: claiming a key: %w", err))
	case recorded != nil && !bytes.Equal(recorded.Fingerprint, k.Fingerprint):
		m.cfg.WriteError(w, r, errReused)
	case recorded != nil:
		m.send(w, recorded, true)
	default:
		m.run(w, r, k, claim)
	}
}

// The middleware's own refusals. A reused key is answered 422 whether the
// first request is done or still in flight: the client's mistake is the
// same, and waiting would not help.
var (
	errReused   = &errcode.Error{Code: CodeKeyReused, Message: MessageReused, Status: http.StatusUnprocessableEntity}
	errInUse    = &errcode.Error{Code: CodeKeyInUse, Message: MessageInUse, Status: http.StatusConflict}
	errTooLarge = &errcode.Error{Code: CodeAnswerTooLarge, Message: MessageTooLarge, Status: http.StatusUnprocessableEntity}
)

// run serves r under claim. An answer to be recorded (a write joined the
// claim, and its status is below 500) is held until it is recorded, then
// sent: no transaction is open while the client reads. Any other is
// passed straight through, once the claim is released (see recorder).
func (m *middleware) run(w http.ResponseWriter, r *http.Request, k Key, claim Claim) {
	rec := &recorder{m: m, w: w, r: r, claim: claim, header: http.Header{}}
	rec.stopRenewing = m.renew(r, claim)
	done := false
	defer func() {
		if !done { // a panic: give the key up, then let it go on
			rec.release()
		}
	}()
	m.next.ServeHTTP(rec, r.WithContext(claim.Context(r.Context())))
	done = true
	rec.finish(k.Fingerprint)
}

// release ends claim without recording, even when the client has gone:
// the key is then free at once rather than when its lease ends.
func (m *middleware) release(r *http.Request, claim Claim) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), m.cfg.Lease)
	defer cancel()
	if err := claim.Release(ctx); err != nil {
		ctxlog.Log(r.Context(), m.cfg.Presenter.Logger, slog.LevelError, "idempotency: releasing a key", ctxlog.Err(err))
	}
}

// renew renews claim's lease every Lease/3 until the function it returns
// is called (it may be called more than once), or until another request
// has taken the key over.
func (m *middleware) renew(r *http.Request, claim Claim) (stop func()) {
	every := m.cfg.Lease / 3
	var (
		mu      sync.Mutex
		stopped bool
		timer   *time.Timer
	)
	tick := func() {
		err := claim.Renew(r.Context(), m.cfg.Now().Add(m.cfg.Lease))
		if err != nil && r.Context().Err() == nil {
			ctxlog.Log(r.Context(), m.cfg.Presenter.Logger, slog.LevelWarn, "idempotency: renewing a key's lease", ctxlog.Err(err))
		}
		mu.Lock()
		defer mu.Unlock()
		if !stopped && !errors.Is(err, ErrClaimLost) {
			timer.Reset(every)
		}
	}
	mu.Lock()
	timer = time.AfterFunc(every, tick)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		timer.Stop()
	}
}

func (m *middleware) fail(w http.ResponseWriter, r *http.Request, err error) {
	m.cfg.WriteError(w, r, &errcode.Error{Code: errcode.CodeInternal, Err: err})
}

func readError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err // package errors answers it 413
	}
	return &errcode.Error{Code: errcode.CodeBadUserInput, Message: "The request body could not be read.", Err: err}
}

// parseKey returns the key of the header values: exactly one, of 1 to
// MaxKeyLength printable ASCII characters, optionally in double quotes.
func parseKey(values []string) (string, bool) {
	if len(values) != 1 {
		return "", false
	}
	k := values[0]
	if len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' {
		k = k[1 : len(k)-1]
	}
	if k == "" || len(k) > MaxKeyLength {
		return "", false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e || k[i] == '"' {
			return "", false
		}
	}
	return k, true
}

// fingerprint digests what makes two requests the same one.
func fingerprint(r *http.Request, body []byte) []byte {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum(nil)
}
