package auth

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// LogoutConfig configures a [Logout]. Its zero value means the defaults.
type LogoutConfig struct {
	// Refresh, when set, is the Refresher whose cookie a logout clears,
	// and whose refresh token, sent in the cookie or in a JSON body, names
	// a session the logout ends too.
	Refresh *Refresher

	// MaxBodyBytes caps the request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Logger receives why a logout was refused or failed, with the
	// request's context and its request id; nil means the logger of the
	// request's reqlog.Handler, else slog.Default() (as Config.Logger).
	Logger *slog.Logger
}

// Logout is the logout endpoint, an [http.Handler] for POST requests with
// a bearer token. Build it with [NewLogout]; it is safe for concurrent use.
//
// Answers, with Cache-Control: no-store:
//
//   - 204 and no body: the session the bearer token was issued with (by a
//     login or a refresh: its sid claim) is revoked, and with it every
//     access token and refresh token of the session, the ones issued
//     before and the ones a refresh in flight issues; a bearer token
//     without a session is revoked on its own. With
//     [LogoutConfig.Refresh], the session of a refresh token sent in the
//     refresh_token cookie or in a JSON body {"refresh_token": "…"} is
//     revoked too, when it is the same user's, and the cookie is cleared.
//     Each revocation is one write to the [TokenStore]: it never waits
//     for the session's refreshes, nor fails because of them.
//   - 401 {"message": "Unauthenticated."} with WWW-Authenticate: Bearer
//     when the bearer token is missing or not valid (already logged out
//     included), as [Verifier.Required] answers;
//   - 503 {"message": "Service unavailable."} when the token store cannot
//     answer (logged); 400, 413 or 422 for a bad body; 405 with Allow: POST
//     for other methods.
type Logout struct {
	verifier *Verifier
	refresh  *Refresher
	maxBody  int64
	logger   *slog.Logger
}

// NewLogout returns the logout endpoint of the tokens verifier accepts.
// The verifier must have a [Config.Tokens] store: without one a token
// cannot be revoked.
func NewLogout(verifier *Verifier, cfg LogoutConfig) (*Logout, error) {
	var errs []error
	switch {
	case verifier == nil:
		errs = append(errs, errors.New("auth: NewLogout needs a Verifier"))
	case verifier.tokens == nil:
		errs = append(errs, errors.New("auth: NewLogout needs a Verifier with Config.Tokens: without a store a token cannot be revoked"))
	}
	maxBody := cfg.MaxBodyBytes
	switch {
	case maxBody == 0:
		maxBody = DefaultMaxBodyBytes
	case maxBody < 0:
		errs = append(errs, errors.New("auth: LogoutConfig.MaxBodyBytes is negative"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Logout{verifier: verifier, refresh: cfg.Refresh, maxBody: maxBody, logger: cfg.Logger}, nil
}

// ServeHTTP implements [http.Handler].
func (l *Logout) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !postOnly(w, r) {
		return
	}
	t, err := l.verifier.Authenticate(r)
	if err != nil {
		l.verifier.refuse(w, r, err)
		return
	}
	ctx := r.Context()
	logger := ctxlog.For(ctx, l.logger)
	var refresh []byte // the hash of the refresh token sent, if any
	if l.refresh != nil {
		token, _, ok := presentedRefresh(w, r, l.maxBody, l.logger)
		if !ok {
			return
		}
		if c, err := r.Cookie(RefreshCookie); token == "" && err == nil {
			token = c.Value // the body named an empty one
		}
		if isRefreshToken(token) {
			refresh = refreshHash(token)
		}
	}
	tokens := l.verifier.tokens
	fail := func(what string, err error) {
		ctxlog.Log(ctx, logger, slog.LevelError, "auth: logout: "+what, ctxlog.Err(err), slog.Int64("user_id", t.UserID))
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, errcode.MessageUnavailable)
	}
	if t.Session == "" {
		// Denied until the last moment the Verifier would still take it.
		if err := tokens.RevokeToken(ctx, t.ID, t.ExpiresAt.Add(l.verifier.leeway)); err != nil {
			fail("revoking the token", err)
			return
		}
	}
	if t.Session != "" || refresh != nil {
		if _, err := tokens.RevokeSession(ctx, t.Session, refresh, t.UserID, l.verifier.now()); err != nil {
			fail("revoking the session", err)
			return
		}
	}
	if l.refresh != nil {
		l.refresh.ClearCookie(w)
	}
	ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: logged out", slog.Int64("user_id", t.UserID))
	w.WriteHeader(http.StatusNoContent)
}
