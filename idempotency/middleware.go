package idempotency

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/auth"
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
	// MaxKeyLength is the longest key accepted.
	MaxKeyLength = 255
)

// Messages of the middleware's own answers.
const (
	MessageBadKey = "The Idempotency-Key header must be one value of 1 to 255 printable ASCII characters."
	MessageReused = "This Idempotency-Key was already used with a different request."
	// Code of the 422 that answers a key reused with another request.
	CodeKeyReused apierror.Code = "IDEMPOTENCY_KEY_REUSED"
)

// Config configures [Middleware]. Store is required; the zero value of
// every other field means the documented default.
type Config struct {
	// Store keeps the keys and the recorded answers.
	Store Store

	// Subject names the caller a request's key belongs to. A request for
	// which it reports false passes through without key handling (the
	// handler then answers it as if it had no key, typically 401). nil
	// means the user id that auth's middlewares put in the request's
	// context (auth.UserID), so the middleware goes inside them.
	Subject func(r *http.Request) (string, bool)

	// TTL is how long an answer stays recorded; 0 means DefaultTTL.
	TTL time.Duration

	// MaxBodyBytes caps the body of a request with a key, which the
	// middleware reads to fingerprint it; a larger one is a 413. 0 means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// WriteError answers the middleware's own refusals (400, 413, 422,
	// 500). nil means the REST shape of package errors,
	// apierror.Presenter.WriteREST; a GraphQL endpoint passes
	// graphqlhttp.WriteError.
	WriteError func(w http.ResponseWriter, r *http.Request, err error)

	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// Logger receives store failures, with the request id. nil means the
	// request's zerolog logger, else standard error.
	Logger *zerolog.Logger

	// ErrorHooks map the errors the default WriteError answers and
	// report the ones it masks, such as a failing store (see
	// apierror.Hooks); pass the value given to the handlers behind the
	// middleware. The zero value maps and reports nothing. A WriteError
	// of your own brings its own hooks: graphqlhttp.Handler.WriteError
	// uses those of graphqlhttp.Config.ErrorHooks.
	ErrorHooks apierror.Hooks
}

// Middleware returns the middleware that applies the package's rules with
// cfg. It fails when cfg.Store is nil or a setting is negative.
func Middleware(cfg Config) (func(http.Handler) http.Handler, error) {
	if cfg.Store == nil {
		return nil, errors.New("idempotency: Config.Store is nil")
	}
	if cfg.TTL < 0 || cfg.MaxBodyBytes < 0 {
		return nil, errors.New("idempotency: TTL and MaxBodyBytes must not be negative")
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Subject == nil {
		cfg.Subject = userSubject
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.WriteError == nil {
		p := apierror.Presenter{Logger: cfg.Logger, Hooks: cfg.ErrorHooks}
		cfg.WriteError = p.WriteREST
	}
	return func(next http.Handler) http.Handler {
		return &middleware{cfg: cfg, next: next}
	}, nil
}

func userSubject(r *http.Request) (string, bool) {
	id, ok := auth.UserID(r.Context())
	if !ok {
		return "", false
	}
	return strconv.FormatInt(id, 10), true
}

type middleware struct {
	cfg  Config
	next http.Handler
}

func (m *middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	values := r.Header.Values(KeyHeader)
	if len(values) == 0 || (r.Method != http.MethodPost && r.Method != http.MethodPatch) {
		m.next.ServeHTTP(w, r)
		return
	}
	key, ok := parseKey(values)
	if !ok {
		m.cfg.WriteError(w, r, apierror.New(apierror.CodeBadUserInput, MessageBadKey))
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
	k := Key{Subject: subject, Key: key, Fingerprint: fingerprint(r, body), Now: now, Expires: now.Add(m.cfg.TTL)}
	recorded, claim, err := m.cfg.Store.Claim(r.Context(), k)
	switch {
	case err != nil:
		m.fail(w, r, fmt.Errorf("idempotency: claiming a key: %w", err))
	case recorded != nil && !bytes.Equal(recorded.Fingerprint, k.Fingerprint):
		m.cfg.WriteError(w, r, &apierror.Error{Code: CodeKeyReused, Message: MessageReused, Status: http.StatusUnprocessableEntity})
	case recorded != nil:
		replay(w, recorded)
	default:
		m.run(w, r, k, claim)
	}
}

// run serves r under claim and records the answer.
func (m *middleware) run(w http.ResponseWriter, r *http.Request, k Key, claim Claim) {
	rec := &recorder{header: http.Header{}}
	done := false
	defer func() {
		if !done { // a panic: give the key up, then let it go on
			_ = claim.Release()
		}
	}()
	m.next.ServeHTTP(rec, r.WithContext(claim.Context(r.Context())))
	done = true
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.status >= 500 {
		if err := claim.Release(); err != nil {
			ctxlog.For(r.Context(), m.cfg.Logger).Error().Err(err).Msg("idempotency: releasing a key")
		}
		rec.send(w, false)
		return
	}
	resp := Response{Fingerprint: k.Fingerprint, Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}
	if err := claim.Commit(r.Context(), resp); err != nil {
		m.fail(w, r, fmt.Errorf("idempotency: recording an answer: %w", err))
		return
	}
	rec.send(w, false)
}

func (m *middleware) fail(w http.ResponseWriter, r *http.Request, err error) {
	m.cfg.WriteError(w, r, &apierror.Error{Code: apierror.CodeInternal, Err: err})
}

func readError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err // package errors answers it 413
	}
	return &apierror.Error{Code: apierror.CodeBadUserInput, Message: "The request body could not be read.", Err: err}
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

// replay sends a recorded answer again.
func replay(w http.ResponseWriter, resp *Response) {
	rec := recorder{header: resp.Header, status: resp.Status}
	rec.body.Write(resp.Body)
	rec.send(w, true)
}

// recorder holds a handler's whole answer until it is recorded.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 && status >= 200 {
		rec.status = status
	}
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.body.Write(p)
}

// send writes the answer to w.
func (rec *recorder) send(w http.ResponseWriter, replayed bool) {
	h := w.Header()
	for name, values := range rec.header {
		h[name] = append([]string(nil), values...)
	}
	if replayed {
		h.Set(ReplayedHeader, "true")
	}
	h.Set("Content-Length", strconv.Itoa(rec.body.Len()))
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}
