// Package auth issues and verifies JWT access tokens, guards handlers with
// them, and serves a login endpoint.
//
// Tokens travel as Authorization: Bearer <JWT>. A [Verifier] checks them and
// offers two middlewares, both of type func(http.Handler) http.Handler so
// that they fit http.ServeMux, chi's r.Use and alice alike:
//
//   - [Verifier.Required] (the specification's jwt middleware) lets a request
//     through only with a valid token;
//   - [Verifier.Optional] lets every request through except one whose token
//     is present but bad.
//
// Either puts the user id in the request context, where handlers and
// resolvers read it with [UserID]. An [Issuer] signs tokens, and [Login] is
// the endpoint that trades an e-mail address and password for one.
//
// # Configuration
//
// One [Config] builds both the verifier and the issuer:
//
//	cfg := auth.Config{Secret: secret} // at least 32 random bytes
//	verifier, err := auth.NewVerifier(cfg)
//	issuer, err := auth.NewIssuer(cfg)
//
// Its fields, zero meaning the default:
//
//   - Secret: the HS256 key, at least [MinSecretBytes] (32) bytes, as RFC
//     7518 requires; a shorter one is an error from the constructors, so a
//     service with a weak key refuses to start.
//   - TTL: lifetime of issued tokens, [DefaultTTL] (60 minutes).
//   - Leeway: clock skew tolerated on exp, nbf and iat, [DefaultLeeway]
//     (30 seconds); negative for none.
//   - PreviousSecrets: keys that only verify, from earlier rotations; each
//     at least 32 bytes (see Key rotation below).
//   - Issuer, Audience: when set, the iss and aud of issued tokens, and
//     required of every token verified.
//   - Tokens: a [TokenStore] of revoked and refresh tokens; when set, the
//     verifier refuses revoked tokens (see Revocation below).
//   - Now: the clock, time.Now; tests replace it.
//
// The algorithm follows from the key. Today the key is an HMAC secret and
// the algorithm HS256; asymmetric keys (RS256, EdDSA) can be added as further
// Config fields without changing any caller of [Verifier.Verify], the
// middlewares or [Issuer.Issue].
//
// # What a token must be
//
// [Verifier.Verify] accepts a token only if all of this holds:
//
//   - it is a compact JWS of at most [MaxHeaderBytes] bytes;
//   - its alg is HS256: "none", HS384, HS512, RS256 and every other
//     algorithm are refused, whatever the signature, so there is no key
//     confusion;
//   - its signature verifies with the key its kid names, among the current
//     and the previous secrets, or with the current secret when it has no
//     kid; a kid naming no configured key is refused; jku, x5u, jwk and the
//     like are ignored and never supply a key; typ, when present, is "JWT"
//     (any case), and crit is refused;
//   - its header and its claims are JSON objects that name no member twice
//     (encoding/json would keep the last, so a token could smuggle a second
//     sub or exp past a reader that takes the first), however the name is
//     escaped ("s\u0075b" is sub); claim names match exactly ("EXP" is not
//     exp);
//   - exp is present and not past; nbf and iat, when present, are not in the
//     future; each with the leeway; the three (and auth_time) are JSON
//     numbers of seconds: "exp":"9999999999", a string, is refused, as is
//     null;
//   - sub is a positive integer that fits in an int64, given as a JSON
//     string ("42", as this package and jwt-auth 2.x issue it) or a JSON
//     number (42, as jwt-auth 1.x issues it), in plain decimal: no sign,
//     leading zero, fraction or exponent;
//   - iss and aud are the configured ones, when [Config.Issuer] and
//     [Config.Audience] are set;
//   - with [Config.Tokens], it is not revoked.
//
// Other claims (jwt-auth's prv, for one) are not checked.
//
// # Key rotation
//
// [Issuer.Issue] writes the kid of the current secret, [KeyID]: a
// fingerprint from which the key cannot be learned. To rotate, make the new
// key the Secret and move the old one to PreviousSecrets; tokens signed
// with it keep working until they expire, one TTL later, when it can be
// dropped. The verifier looks the kid up instead of trying every key.
//
// # Revocation
//
// With [Config.Tokens] (pgstore's and sqlitestore's Tokens method return a
// [SQLTokenStore]) every token the verifier accepts costs one lookup,
// [TokenStore.Revoked], which refuses it when
//
//   - its id (jti) was logged out ([TokenStore.RevokeToken], for a token
//     without a session; the entry goes when the token expires);
//   - it was issued with a session (its sid claim: a [Login] or a
//     [Refresher] with refresh tokens issued it) that was revoked
//     ([Logout], a reuse of a refresh token: [TokenStore.RevokeSession]),
//     that expired, or that the store does not know;
//   - its user logged out everywhere ([TokenStore.RevokeUser]) after its
//     session began or, for a token without a session, after it was
//     issued (auth_time, else iat).
//
// Every revocation is one write that takes effect from the next request
// on, whatever the session's refresh tokens do meanwhile: the session is
// checked where its tokens are used, so the refresh tokens and access
// tokens that a refresh racing the revocation hands out are refused too.
// The cutoff of "log out everywhere" counts from the whole second after it,
// as iat has whole seconds: a token or session of the cutoff's own second
// is over too. When the store cannot answer, the token is refused with an
// error wrapping [ErrUnavailable], which the middlewares answer with 503
// {"message":"Service unavailable."}: revocation fails closed.
//
// # Requests
//
// The Authorization header is the only place a token is read from; the
// scheme is matched without regard to case ("bearer" works). A header longer
// than [MaxHeaderBytes] (8 KiB) is refused before any parsing. Only a
// request without an Authorization header counts as having no token
// ([ErrNoToken]): [Verifier.Optional] lets it through anonymously,
// [Verifier.Required] refuses it. A header that is present is either one
// valid bearer token or a 401 from both: an empty header, "Bearer" without
// a token, a tab between scheme and token ([ErrMalformedHeader]) and
// another scheme such as Basic ([ErrUnsupportedScheme]) are refused like a
// bad token, never taken for an anonymous request.
//
// Every refusal is the same answer, so that a client learns nothing about
// why:
//
//	HTTP/1.1 401 Unauthorized
//	Content-Type: application/json
//	WWW-Authenticate: Bearer
//
//	{"message":"Unauthenticated."}
//
// The reason (an error wrapping one of [ErrNoToken], [ErrMalformedHeader],
// [ErrUnsupportedScheme], [ErrTokenTooLarge], [ErrInvalidToken] or
// [ErrInvalidSubject]) is logged
// through [Config.Logger], else the request's zerolog logger, else
// standard error: at debug level for a
// missing header, at info level otherwise. The token itself is never logged.
//
// A handler that must word the 401 its own way, such as a GraphQL endpoint
// answering {"errors":[…]}, calls [Verifier.Authenticate] and treats
// [ErrNoToken] as an anonymous request, or takes the Verifier as its
// authenticator: [Verifier.AuthenticateContext] and [Verifier.UserID] make
// it a graphqlhttp.Authenticator.
//
// # Issuing tokens and logging in
//
// [Issuer.Issue] signs a token with sub (the user id as a decimal string),
// iat and nbf (now), exp (now + TTL), a random jti, and iss and aud when
// configured, under the header {"alg":"HS256","kid":…,"typ":"JWT"}.
//
// [Login] checks {"email", "password"} against a [Users] store holding bcrypt
// hashes ([HashPassword] makes them) and answers jwt-auth's
// {"access_token", "token_type": "bearer", "expires_in"}. An unknown e-mail
// address costs the same bcrypt work as a wrong password and gets the same
// 401 {"message":"Invalid credentials."}. See [Login] for every answer.
//
// Guessing is throttled as Laravel's ThrottlesLogins does it: after five
// failed logins of one e-mail address (any case) from one client address
// within a minute of the first, the login answers 429 "Too many login
// attempts. Please try again in N seconds." with Retry-After: N, without
// checking the password, until the minute is over; a success starts the
// count again. The client address is the connection's, or, behind the
// proxies named in [LoginConfig.TrustedProxies], the rightmost untrusted
// one of X-Forwarded-For. The counts live in the process
// ([MemoryThrottle]); a [LoginThrottle] on a shared store makes several
// processes count together, and a throttle that fails closes the login
// (503). [LoginConfig.MaxConcurrentChecks] bounds the bcrypt comparisons
// that run at once (by default to half the CPUs), so that a flood of
// logins cannot starve the rest of the service; the logins beyond it wait
// their turn.
//
// # Refresh tokens and sessions
//
// A [Refresher] ([NewRefresher]) hands out refresh tokens: opaque random
// strings, stored hashed. A login ([LoginConfig.Refresh]) begins a session
// ([Refresher.Start]): a record of its own in the store, whose id is the
// sid claim of every access token issued in it (with auth_time, when the
// user logged in), and the session's first refresh token, set in the
// refresh_token cookie. The Refresher is also the refresh endpoint, which
// trades a refresh token (cookie, or JSON body for clients that are not
// browsers) for a new access token and the token's successor. A token is
// good once: presenting it again revokes its whole session, unless within
// [RefreshConfig.ReuseGrace] of its rotation, when it gets the same
// successor again. Sessions expire [RefreshConfig.TTL] after the login
// whatever the rotations, and a token unused for [RefreshConfig.IdleTTL]
// expires. [Logout] ends the session of the bearer token and of the
// refresh token sent; [TokenStore.RevokeUser] ends them all.
//
// # Concurrency
//
// A [Verifier], an [Issuer], a [Login], a [Refresher] and a [Logout] are
// immutable after construction and safe for concurrent use.
package auth
