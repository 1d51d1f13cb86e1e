package auth

import (
	"errors"
	"net/http"

	"github.com/rs/zerolog"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// LogoutConfig configures a [Logout]. Its zero value means the defaults.
type LogoutConfig struct {
	// Refresh, when set, is the Refresher whose tokens a logout revokes
	// too: the family the access token was issued with (its sid claim),
	// and the family of the refresh token in the request's cookie or JSON
	// body, whose cookie is then cleared.
	Refresh *Refresher

	// MaxBodyBytes caps the request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Logger receives why a logout was refused or failed, with the
	// request id; nil means the request's zerolog logger.
	Logger *zerolog.Logger
}

// Logout is the logout endpoint, an [http.Handler] for POST requests with
// a bearer token. Build it with [NewLogout]; it is safe for concurrent use.
//
// Answers, with Cache-Control: no-store:
//
//   - 204 and no body: the bearer token is revoked (refused by the
//     Verifier from then on, until it expires), and with
//     [LogoutConfig.Refresh] the refresh token family the access token was
//     issued with (by a login or a refresh: its sid claim) and the family
//     of a refresh token sent in the refresh_token cookie or in a JSON body
//     {"refresh_token": "…"} are revoked and the cookie cleared. A refresh
//     token of another user is left alone.
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
	logger   *zerolog.Logger
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
	var refresh string
	if l.refresh != nil {
		var ok bool
		if refresh, _, ok = presentedRefresh(w, r, l.maxBody, l.logger); !ok {
			return
		}
		if c, err := r.Cookie(RefreshCookie); refresh == "" && err == nil {
			refresh = c.Value // the body named an empty one
		}
	}
	// Denied until the last moment the Verifier would still take it.
	if err := l.verifier.tokens.RevokeToken(ctx, t.ID, t.ExpiresAt.Add(l.verifier.leeway)); err != nil {
		logger.Error().Err(err).Int64("user_id", t.UserID).Msg("auth: logout: revoking the token")
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
		return
	}
	// The family the access token was issued with, and the one of the
	// refresh token sent, when they differ.
	type family struct {
		hash []byte // of a refresh token of the family, or
		id   string // the family's id
	}
	var families []family
	if l.refresh != nil && t.Session != "" {
		families = append(families, family{id: t.Session})
	}
	if refresh != "" && isRefreshToken(refresh) {
		families = append(families, family{hash: refreshHash(refresh)})
	}
	for _, f := range families {
		if _, err := l.refresh.store.RevokeRefresh(ctx, f.hash, f.id, t.UserID, l.refresh.now()); err != nil {
			logger.Error().Err(err).Int64("user_id", t.UserID).Msg("auth: logout: revoking the refresh token")
			httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
			return
		}
	}
	if l.refresh != nil {
		l.refresh.ClearCookie(w)
	}
	logger.Info().Int64("user_id", t.UserID).Msg("auth: logged out")
	w.WriteHeader(http.StatusNoContent)
}
