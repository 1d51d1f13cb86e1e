package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// unauthenticatedBody is the one body every refused request gets.
const unauthenticatedBody = `{"message":"Unauthenticated."}`

// Required is the middleware for routes that need a user. A request with a valid bearer token
// reaches next with the user in its context ([Subject], [UserID]; a handler
// that writes calls [Recheck] once it has read the body); any other request
// gets 401 {"message":"Unauthenticated."} with Content-Type: application/json
// and WWW-Authenticate: Bearer, and the reason goes to [Config.Logger] (see
// there).
func (v *Verifier) Required(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, err := v.Authenticate(r)
		if err != nil {
			v.refuse(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(v.withVerified(r.Context(), t)))
	})
}

// Optional is the middleware for routes open to everyone that still want to
// know the user. A request with a valid bearer token reaches next with the
// user id in its context; a request without an Authorization header
// ([ErrNoToken]) reaches next unchanged; a request with any other
// Authorization header (a bad token, a malformed header, another scheme
// such as Basic) gets the same 401 as with [Verifier.Required].
func (v *Verifier) Optional(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, err := v.Authenticate(r)
		switch {
		case err == nil:
			r = r.WithContext(v.withVerified(r.Context(), t))
		case errors.Is(err, ErrNoToken):
		default:
			v.refuse(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Authenticate checks the bearer token of r and returns what it says. It is
// the check behind the middlewares, for handlers that answer a refusal their
// own way (the GraphQL endpoint writes a GraphQL-shaped 401). The error
// wraps [ErrNoToken] when r has no Authorization header, and otherwise one
// of [ErrTokenTooLarge], [ErrMalformedHeader], [ErrUnsupportedScheme],
// [ErrInvalidToken], [ErrInvalidSubject], [ErrRevoked] or [ErrUnavailable].
// Authenticate neither logs nor writes anything.
func (v *Verifier) Authenticate(r *http.Request) (Token, error) {
	token, err := bearerToken(r.Header)
	if err != nil {
		return Token{}, err
	}
	return v.Verify(r.Context(), token)
}

// bearerToken returns the token of the Authorization header, refusing an
// oversized header before looking into it. The scheme is matched without
// regard to case and is separated from the token by spaces (RFC 9110
// §11.4: 1*SP). Only a missing header is "no token": a header that is
// present but holds no usable bearer token is an error, so that a client
// whose credentials are not understood is told so instead of being served
// anonymously.
func bearerToken(h http.Header) (string, error) {
	values := h.Values("Authorization")
	size := 0
	for _, v := range values {
		size += len(v)
	}
	switch {
	case size > MaxHeaderBytes:
		return "", fmt.Errorf("%w: Authorization header is %d bytes, at most %d allowed", ErrTokenTooLarge, size, MaxHeaderBytes)
	case len(values) > 1:
		return "", fmt.Errorf("%w: %d Authorization headers", ErrMalformedHeader, len(values))
	case len(values) == 0:
		return "", ErrNoToken
	}
	value := strings.Trim(values[0], " \t")
	if value == "" {
		return "", fmt.Errorf("%w: Authorization header is empty", ErrMalformedHeader)
	}
	end := strings.IndexAny(value, " \t")
	if end < 0 {
		end = len(value)
	}
	scheme, token := value[:end], value[end:]
	switch {
	case !strings.EqualFold(scheme, "Bearer"):
		return "", fmt.Errorf("%w: Authorization scheme is not Bearer", ErrUnsupportedScheme)
	case token == "":
		return "", fmt.Errorf("%w: empty bearer token", ErrMalformedHeader)
	case token[0] == '\t':
		return "", fmt.Errorf("%w: a tab separates the scheme from the token", ErrMalformedHeader)
	}
	token = strings.TrimLeft(token, " ")
	if !isToken68(token) {
		return "", fmt.Errorf("%w: bearer token holds characters a token cannot contain", ErrMalformedHeader)
	}
	return token, nil
}

// isToken68 reports whether s has the syntax of RFC 6750's b64token:
// letters, digits and -._~+/ followed by any number of "=".
func isToken68(s string) bool {
	s = strings.TrimRight(s, "=")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '_', c == '~', c == '+', c == '/':
		default:
			return false
		}
	}
	return true
}

// refuse answers a request whose credentials failed with err, and logs
// why: at debug level when it simply had no Authorization header, at info
// level for a bad token (401 for both), at error level when the token
// store could not answer (503). The token itself is never logged.
func (v *Verifier) refuse(w http.ResponseWriter, r *http.Request, err error) {
	logger := ctxlog.For(r.Context(), v.logger)
	switch {
	case errors.Is(err, ErrUnavailable):
		ctxlog.Log(r.Context(), logger, slog.LevelError, "auth: request refused: the token store is unavailable", ctxlog.Err(err))
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, errcode.MessageUnavailable)
		return
	case errors.Is(err, ErrNoToken):
		ctxlog.Log(r.Context(), logger, slog.LevelDebug, "auth: request refused", ctxlog.Err(err))
	default:
		ctxlog.Log(r.Context(), logger, slog.LevelInfo, "auth: request refused", ctxlog.Err(err))
	}
	writeUnauthenticated(w)
}

// writeUnauthenticated writes the 401 every refused request gets.
func writeUnauthenticated(w http.ResponseWriter) {
	h := w.Header()
	h.Set("WWW-Authenticate", "Bearer")
	httpjson.Write(w, http.StatusUnauthorized, []byte(unauthenticatedBody))
}

// AuthenticateContext authenticates r for handlers that answer failures in
// their own format, such as the GraphQL endpoint (graphqlhttp.Config.Auth):
// with no Authorization header it returns r's context unchanged; with a
// valid bearer token, r's context carrying the token ([UserID],
// [TokenFrom]), which [Recheck] can check again before a write; with
// any other Authorization header (an invalid token, a malformed header,
// another scheme), the reason (see [Verifier.Authenticate]), which the
// caller answers with a 401 and logs. Behind [Verifier.Remember] it
// answers from the outcome Remember kept, without checking again.
func (v *Verifier) AuthenticateContext(r *http.Request) (context.Context, error) {
	if ctx, ok, err := v.remembered(r); ok {
		return ctx, err
	}
	t, err := v.Authenticate(r)
	switch {
	case errors.Is(err, ErrNoToken):
		return r.Context(), nil
	case err != nil:
		return nil, err
	}
	return v.withVerified(r.Context(), t), nil
}

// UserID returns the user id a context from [Verifier.AuthenticateContext]
// or the middlewares carries: [UserID] (false for a provider's subject that
// is not a decimal id; [Verifier.Subject] reads every subject).
func (v *Verifier) UserID(ctx context.Context) (int64, bool) { return UserID(ctx) }

// Subject returns the user a context from [Verifier.AuthenticateContext]
// or the middlewares carries, as a string: [Subject]. With
// AuthenticateContext it makes a Verifier the graphqlhttp.Authenticator
// of the GraphQL mutation gate.
func (v *Verifier) Subject(ctx context.Context) (string, bool) { return Subject(ctx) }
