package auth

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/validate"
)

// Defaults of [RefreshConfig].
const (
	// DefaultRefreshTTL is the absolute lifetime of a refresh token family
	// (jwt-auth's refresh_ttl, two weeks): however often its tokens are
	// rotated, the user logs in again after it.
	DefaultRefreshTTL = 14 * 24 * time.Hour

	// DefaultRefreshIdleTTL is how long a refresh token stays good unused:
	// a client that has not refreshed for a week logs in again.
	DefaultRefreshIdleTTL = 7 * 24 * time.Hour

	// DefaultReuseGrace is how long after a rotation the rotated token
	// still gets the same successor, for concurrent refreshes (two tabs,
	// a retried request whose answer was lost).
	DefaultReuseGrace = 10 * time.Second

	// RefreshCookie is the name of the cookie that carries the refresh
	// token.
	RefreshCookie = "refresh_token"

	// DefaultRefreshCookiePath is the cookie's Path when
	// [RefreshConfig.CookiePath] is empty: the cookie goes to the auth
	// endpoints only, never to the API.
	DefaultRefreshCookiePath = "/api/auth"
)

// RefreshConfig configures a [Refresher]. Store is required; every other
// field's zero value means the documented default.
type RefreshConfig struct {
	// Store keeps the refresh tokens, hashed (see [TokenStore]).
	Store TokenStore

	// TTL is the absolute lifetime of a family: the tokens rotated from a
	// login's token expire when it does. Zero means DefaultRefreshTTL.
	TTL time.Duration

	// IdleTTL is how long a token stays good before it is used, never past
	// the family's TTL. Zero means DefaultRefreshIdleTTL; a negative value
	// means none (only TTL applies).
	IdleTTL time.Duration

	// ReuseGrace is how long after a rotation presenting the rotated token
	// again gets the same successor instead of revoking the family. Zero
	// means DefaultReuseGrace; a negative value turns the grace off, so
	// that any second use revokes the family.
	ReuseGrace time.Duration

	// SecureCookie marks the cookie Secure: browsers then send it over
	// HTTPS only. Set it whenever the service is reached over HTTPS.
	SecureCookie bool

	// CookiePath is the cookie's Path; empty means
	// DefaultRefreshCookiePath. It must cover the refresh and logout
	// endpoints.
	CookiePath string

	// MaxBodyBytes caps a request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Logger receives why a refresh was refused (never a token), with the
	// request's context and its request id; nil means the logger of the
	// request's reqlog.Handler, else slog.Default() (as Config.Logger).
	Logger *slog.Logger

	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Refresher issues, rotates and revokes refresh tokens, and is the refresh
// endpoint: an [http.Handler] for POST requests. Build it with
// [NewRefresher]; [LoginConfig.Refresh] makes the login begin a session
// and hand out its first refresh token, and [NewLogout] ends sessions.
//
// A refresh token is 43 random base64url characters (256 bits), opaque, and
// stored only as its SHA-256. The refresh endpoint takes it from the
// refresh_token cookie or, for clients that are not browsers, from a JSON
// body {"refresh_token": "…"}, and answers, with Cache-Control: no-store:
//
//   - 200 {"access_token": "…", "token_type": "bearer", "expires_in": 3600}
//     (the login's shape) and a new refresh token in the cookie, and also
//     in the body as "refresh_token" when it came in the body. The
//     presented token is used up (rotation).
//   - 401 {"message": "Unauthenticated."} with WWW-Authenticate: Bearer
//     for a missing, unknown, expired or revoked token (its session
//     revoked, or started before its user logged out everywhere), and for
//     a token that was already rotated: that is a reuse, which revokes the
//     whole session (the thief's tokens and the user's alike, access
//     tokens included), except within ReuseGrace after the rotation, when
//     the answer is a 200 with the same successor as the first time. A
//     refused token's cookie is cleared.
//   - 503 {"message": "Service unavailable."} when the store cannot
//     answer (logged); 400, 413, 422 for a bad body; 405 with Allow: POST
//     for other methods.
type Refresher struct {
	issuer  *Issuer
	store   TokenStore
	ttl     time.Duration
	idle    time.Duration // 0: none
	grace   time.Duration // 0: none
	secure  bool
	path    string
	maxBody int64
	logger  *slog.Logger
	now     func() time.Time
}

// NewRefresher returns a Refresher that signs access tokens with issuer and
// keeps refresh tokens in cfg.Store. It reports every problem of cfg at
// once.
func NewRefresher(issuer *Issuer, cfg RefreshConfig) (*Refresher, error) {
	var errs []error
	if issuer == nil {
		errs = append(errs, errors.New("auth: NewRefresher needs an Issuer"))
	}
	if cfg.Store == nil {
		errs = append(errs, errors.New("auth: RefreshConfig.Store is nil"))
	}
	f := &Refresher{
		issuer:  issuer,
		store:   cfg.Store,
		ttl:     cfg.TTL,
		idle:    cfg.IdleTTL,
		grace:   cfg.ReuseGrace,
		secure:  cfg.SecureCookie,
		path:    cfg.CookiePath,
		maxBody: cfg.MaxBodyBytes,
		logger:  cfg.Logger,
		now:     cfg.Now,
	}
	switch {
	case f.ttl == 0:
		f.ttl = DefaultRefreshTTL
	case f.ttl < time.Second:
		errs = append(errs, fmt.Errorf("auth: RefreshConfig.TTL is %v; it must be at least 1s", cfg.TTL))
	}
	switch {
	case f.idle == 0:
		f.idle = DefaultRefreshIdleTTL
	case f.idle < 0:
		f.idle = 0
	case f.idle < time.Second:
		errs = append(errs, fmt.Errorf("auth: RefreshConfig.IdleTTL is %v; it must be at least 1s, or negative for none", cfg.IdleTTL))
	}
	switch {
	case f.grace == 0:
		f.grace = DefaultReuseGrace
	case f.grace < 0:
		f.grace = 0
	}
	if f.path == "" {
		f.path = DefaultRefreshCookiePath
	}
	switch {
	case f.maxBody == 0:
		f.maxBody = DefaultMaxBodyBytes
	case f.maxBody < 0:
		errs = append(errs, fmt.Errorf("auth: RefreshConfig.MaxBodyBytes is %d; it must not be negative", cfg.MaxBodyBytes))
	}
	if f.now == nil {
		f.now = time.Now
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return f, nil
}

// Start begins a session for user, as a login does: it stores the session
// and its first refresh token at once, and returns the token and the
// session's id (the sid claim of the access tokens issued with it, through
// which [Logout] ends the session). The error wraps [ErrUnavailable] when
// the store fails.
func (f *Refresher) Start(ctx context.Context, user int64) (token, session string, err error) {
	token, session = newRefreshToken(), rand.Text()
	now := f.now()
	expires := now.Add(f.ttl)
	err = f.store.StartSession(ctx, RefreshToken{
		Hash:            refreshHash(token),
		Family:          session,
		UserID:          user,
		CreatedAt:       now,
		ExpiresAt:       f.idleExpiry(now, expires),
		FamilyExpiresAt: expires,
		SessionStart:    now,
	})
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return token, session, nil
}

// idleExpiry is when a token issued at now expires unused.
func (f *Refresher) idleExpiry(now, family time.Time) time.Time {
	if f.idle == 0 || now.Add(f.idle).After(family) {
		return family
	}
	return now.Add(f.idle)
}

// SetCookie writes the cookie that carries token.
func (f *Refresher) SetCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, f.cookie(token, int(f.ttl/time.Second)))
}

// ClearCookie writes a cookie that deletes the refresh token cookie.
func (f *Refresher) ClearCookie(w http.ResponseWriter) {
	http.SetCookie(w, f.cookie("", -1))
}

// cookie is the refresh token cookie with value and maxAge (negative:
// delete it now).
func (f *Refresher) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     RefreshCookie,
		Value:    value,
		Path:     f.path,
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   f.secure,
		SameSite: http.SameSiteStrictMode,
	}
}

// refreshResponse is the body of a refresh: the login's, plus the refresh
// token when it came in the body.
type refreshResponse struct {
	tokenResponse
	RefreshToken string `json:"refresh_token,omitempty"`
}

// ServeHTTP implements [http.Handler]: the refresh endpoint.
func (f *Refresher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !postOnly(w, r) {
		return
	}
	token, fromBody, ok := presentedRefresh(w, r, f.maxBody, f.logger)
	if !ok {
		return
	}
	logger := ctxlog.For(r.Context(), f.logger)
	refuse := func(reason error) {
		ctxlog.Log(r.Context(), logger, slog.LevelInfo, "auth: refresh refused", ctxlog.Err(reason))
		if !fromBody {
			f.ClearCookie(w)
		}
		writeUnauthenticated(w)
	}
	if token == "" {
		refuse(fmt.Errorf("%w: no refresh token", errRefreshRefused))
		return
	}
	if !isRefreshToken(token) {
		refuse(fmt.Errorf("%w: the refresh token is malformed", errRefreshRefused))
		return
	}
	next, rec, err := f.rotate(r.Context(), token)
	switch {
	case errors.Is(err, errRefreshRefused):
		refuse(err)
		return
	case err != nil:
		ctxlog.Log(r.Context(), logger, slog.LevelError, "auth: refresh failed", ctxlog.Err(err))
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, errcode.MessageUnavailable)
		return
	}
	access, err := f.issuer.issueFor(rec.UserID, rec.Family, rec.SessionStart)
	if err != nil {
		ctxlog.Log(r.Context(), logger, slog.LevelError, "auth: refresh: issuing the token", ctxlog.Err(err), slog.Int64("user_id", rec.UserID))
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
	}
	resp := refreshResponse{tokenResponse: tokenResponse{
		AccessToken: access,
		TokenType:   "bearer",
		ExpiresIn:   int64(f.issuer.TTL().Seconds()),
	}}
	if fromBody {
		resp.RefreshToken = next
	}
	f.SetCookie(w, next)
	httpjson.WriteValue(w, http.StatusOK, resp)
}

// errRefreshRefused marks the refusals of rotate; its message says why.
var errRefreshRefused = errors.New("auth: refresh refused")

// rotate trades token for its successor. The error wraps errRefreshRefused
// for a token that does not refresh, and ErrUnavailable when the store
// fails.
func (f *Refresher) rotate(ctx context.Context, token string) (string, RefreshToken, error) {
	now := f.now()
	hash := refreshHash(token)
	next := newRefreshToken()
	sealed, err := seal(token, next)
	if err != nil {
		return "", RefreshToken{}, err
	}
	rec, rotated, found, err := f.store.RotateRefresh(ctx, hash, RefreshToken{
		Hash:      refreshHash(next),
		CreatedAt: now,
		ExpiresAt: f.idleExpiry(now, now.Add(f.ttl)), // capped by the family's expiry
	}, sealed, now)
	switch {
	case err != nil:
		return "", RefreshToken{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	case !found:
		return "", RefreshToken{}, fmt.Errorf("%w: unknown refresh token", errRefreshRefused)
	case !rec.RevokedAt.IsZero():
		// Even when this call rotated it: the session was revoked at the
		// same instant, and the successor is dead already.
		return "", RefreshToken{}, fmt.Errorf("%w: the refresh token's session is over: revoked, or its user logged out everywhere (user %d)",
			errRefreshRefused, rec.UserID)
	case rotated:
		return next, rec, nil
	case rec.UsedAt.IsZero():
		return "", RefreshToken{}, fmt.Errorf("%w: the refresh token expired (user %d)", errRefreshRefused, rec.UserID)
	}
	// Used before: a concurrent refresh within the grace window, or a
	// reuse.
	if f.grace > 0 && !now.After(rec.UsedAt.Add(f.grace)) {
		successor, err := unseal(token, rec.Successor)
		if err == nil {
			return successor, rec, nil
		}
	}
	if _, err := f.store.RevokeSession(ctx, rec.Family, nil, rec.UserID, now); err != nil {
		return "", RefreshToken{}, fmt.Errorf("%w: revoking a reused refresh token's session: %w", ErrUnavailable, err)
	}
	return "", RefreshToken{}, fmt.Errorf("%w: the refresh token was used before, %v ago; its session is revoked (user %d)",
		errRefreshRefused, now.Sub(rec.UsedAt).Round(time.Millisecond), rec.UserID)
}

// presentedRefresh returns the refresh token of r: from a JSON body's
// refresh_token when r has a JSON body that holds one, else from the
// cookie ("" when there is none). When ok is false it has answered.
func presentedRefresh(w http.ResponseWriter, r *http.Request, maxBody int64, logger *slog.Logger) (token string, fromBody, ok bool) {
	if r.ContentLength != 0 && httpjson.IsJSON(r.Header.Get("Content-Type")) {
		token, present, ok := readRefreshField(w, r, maxBody, logger)
		if !ok || present {
			return token, true, ok
		}
	}
	if c, err := r.Cookie(RefreshCookie); err == nil {
		return c.Value, false, true
	}
	return "", false, true
}

// readRefreshField reads a JSON object body and its refresh_token field:
// present is false when the body is empty or the object has no such field.
// When ok is false it has answered: 400, 413 or, for a refresh_token that
// is not a string, 422.
func readRefreshField(w http.ResponseWriter, r *http.Request, maxBody int64, logger *slog.Logger) (token string, present, ok bool) {
	fields, failure := httpjson.ReadObject(w, r, maxBody)
	if failure != nil {
		if failure.Err != nil {
			ctxlog.Log(r.Context(), logger, slog.LevelInfo, "auth: reading the body", ctxlog.Err(failure.Err))
		}
		failure.Write(w)
		return "", false, false
	}
	raw, present := fields["refresh_token"]
	if !present || string(raw) == "null" {
		return "", false, true
	}
	if json.Unmarshal(raw, &token) != nil {
		var problems validate.Failures
		problems.Add("refresh_token", "The refresh token field must be a string.")
		httpjson.WriteValidationFailed(w, problems)
		return "", true, false
	}
	return token, true, true
}

// newRefreshToken returns 256 random bits as 43 base64url characters.
func newRefreshToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// isRefreshToken reports whether s has the shape of newRefreshToken's
// tokens, so that nothing else reaches the store.
func isRefreshToken(s string) bool {
	if len(s) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.Strict().DecodeString(s)
	return err == nil
}

// refreshHash is what the store keeps of a refresh token.
func refreshHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// successorKey derives, from a refresh token, the AES-256 key its
// successor is sealed with: only a holder of the token can open it, and
// the stored hash (a different derivation) does not help.
func successorKey(token string) []byte {
	sum := sha256.Sum256([]byte("gqlkit refresh successor\x00" + token))
	return sum[:]
}

// seal encrypts next under a key derived from token (AES-256-GCM with a
// random nonce).
func seal(token, next string) ([]byte, error) {
	aead, err := successorAEAD(token)
	if err != nil {
		return nil, err
	}
	return aead.Seal(nil, nil, []byte(next), nil), nil
}

// unseal opens what seal sealed for token.
func unseal(token string, sealed []byte) (string, error) {
	aead, err := successorAEAD(token)
	if err != nil {
		return "", err
	}
	plain, err := aead.Open(nil, nil, sealed, nil)
	if err != nil {
		return "", fmt.Errorf("auth: opening a refresh token's successor: %w", err)
	}
	return string(plain), nil
}

func successorAEAD(token string) (cipher.AEAD, error) {
	block, err := aes.NewCipher(successorKey(token))
	if err != nil {
		return nil, fmt.Errorf("auth: sealing a refresh token: %w", err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("auth: sealing a refresh token: %w", err)
	}
	return aead, nil
}
