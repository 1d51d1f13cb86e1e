// Package auth issues and verifies JWT access tokens, guards handlers with
// them, and serves a login endpoint.
//
// Tokens travel as Authorization: Bearer <JWT>. A [Verifier] checks them and
// offers two middlewares, both of type func(http.Handler) http.Handler so
// that they fit http.ServeMux, chi's r.Use and alice alike:
//
//   - [Verifier.Required] lets a request through only with a valid token;
//   - [Verifier.Optional] lets every request through except one whose token
//     is present but bad.
//
// Either puts the user in the request context, where handlers and
// resolvers read it with [Subject] (a string: the token's sub) or [UserID]
// (an int64, when sub is a decimal id). An [Issuer] signs tokens, and
// [Login] is the endpoint that trades an e-mail address and password for
// one. Tokens of an identity provider (RS256, ES256, EdDSA) are verified
// too, with keys fetched from its JWKS URL: see Identity providers below.
//
// # Configuration
//
// The key material is the first argument of the constructors, and one
// [Config] configures both the verifier and the issuer:
//
//	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{}) // at least 32 random bytes
//	issuer, err := auth.NewIssuer(secret, auth.Config{})
//
// The keys are one of [HMAC] (the kit's own HS256 secret, at least
// [MinSecretBytes] (32) bytes as RFC 7518 requires, and the previous
// secrets that only verify: see Key rotation below), [PublicKeys] or a
// [*JWKS] (see Identity providers below). A short secret is an error from
// the constructors, so a service with a weak key refuses to start.
//
// The fields of Config, zero meaning the default:
//
//   - TTL: lifetime of issued tokens, [DefaultTTL] (60 minutes).
//   - Leeway: clock skew tolerated on exp, nbf and iat, [DefaultLeeway]
//     (30 seconds); negative for none.
//   - Issuer, Audience: when set, the iss and aud of issued tokens, and
//     required of every token verified. With public keys ([PublicKeys], a
//     [*JWKS]) both must be set: [NewVerifier] refuses them otherwise.
//   - Tokens: a [TokenStore] of revoked and refresh tokens; when set, the
//     verifier refuses revoked tokens (see Revocation below). It needs
//     [HMAC] keys.
//   - Now: the clock, time.Now; tests replace it.
//
// The algorithm follows from the key: HS256 for a secret, RS256 for an
// RSA key, ES256 for a P-256 key, EdDSA for an Ed25519 key.
//
// # What a token must be
//
// [Verifier.Verify] accepts a token only if all of this holds:
//
//   - it is a compact JWS of at most [MaxHeaderBytes] bytes;
//   - its signature verifies with the key its kid names, among the current
//     and the previous secrets, or with the current secret when it has no
//     kid (for public keys: the key without a kid, if there is one); a kid
//     naming no key is refused; jku, x5u, jwk and the like are ignored and
//     never supply a key; typ, when present, is "JWT" (any case), and crit
//     is refused;
//   - its alg is the algorithm of that key: "none", HS384, PS256 and every
//     other algorithm are refused, whatever the signature, and so is an
//     HS256 token whose kid names a public key (whose bytes an attacker
//     knows) or an RS256 token under an HMAC kid, so there is no key
//     confusion;
//   - its header and its claims are JSON objects that name no member twice
//     (encoding/json would keep the last, so a token could smuggle a second
//     sub or exp past a reader that takes the first), however the name is
//     escaped ("s\u0075b" is sub); claim names match exactly ("EXP" is not
//     exp);
//   - exp is present and not past; nbf and iat, when present, are not in the
//     future; each with the leeway; the three (and auth_time) are JSON
//     numbers of seconds: "exp":"9999999999", a string, is refused, as is
//     null;
//   - for [HMAC] keys, sub is a positive integer that fits in an int64,
//     given as a JSON string ("42", as this package and jwt-auth 2.x issue
//     it) or a JSON number (42, as jwt-auth 1.x issues it), in plain
//     decimal: no sign, leading zero, fraction or exponent; for public
//     keys, sub is a JSON string of 1 to [MaxSubjectBytes] (255) bytes
//     without control characters (a UUID, say), which [Token.UserID] and
//     [UserID] also give as an int64 when it is such an integer;
//   - iss and aud are the configured ones, when [Config.Issuer] and
//     [Config.Audience] are set, as they must be for public keys;
//   - with [Config.Tokens], it is not revoked.
//
// Other claims (jwt-auth's prv, for one) are not checked.
//
// # Key rotation
//
// [Issuer.Issue] writes the kid of the current secret, [KeyID]: a
// fingerprint from which the key cannot be learned. To rotate, make the new
// key the secret and pass the old one after it, auth.HMAC(newKey, oldKey)
// for the Verifier; tokens signed
// with it keep working until they expire, one TTL later, when it can be
// dropped. The verifier looks the kid up instead of trying every key.
//
// # Identity providers
//
// A service whose users log in elsewhere (Auth0, Keycloak, Okta, Cognito,
// Entra ID, or its own token service) passes the provider's JWKS URL, the
// jwks_uri of its OpenID configuration, and requires its iss and aud:
//
//	keys, err := auth.NewJWKS("https://id.example.com/.well-known/jwks.json", auth.JWKSConfig{})
//	verifier, err := auth.NewVerifier(keys, auth.Config{
//		Issuer:   "https://id.example.com/",
//		Audience: "https://api.example.com",
//	})
//
// Both are required: [NewVerifier] refuses public keys without
// [Config.Issuer] and [Config.Audience]. A provider signs the tokens of all
// its clients with the same keys, so a signature alone would let in a
// token issued for another application (an ID token of Google or Entra ID
// for someone else's client, say); iss and aud tell this service's apart.
//
// Handlers then read the user with [Subject], the token's sub (a UUID, an
// opaque id); [UserID] answers only for a sub that is a positive decimal
// int64 without sign or leading zero.
// Keys that are configured rather than fetched go in [PublicKeys].
//
// The key set is fetched when a token first needs it and cached ([JWKS]
// has the details). A token whose kid the cached set lacks makes the
// Verifier fetch it again (the provider rotated its keys) and wait for
// the fetch; a set older than [JWKSConfig.MaxAge] ([DefaultJWKSMaxAge], an
// hour) is fetched again while its keys keep verifying. Fetches start at
// most once per [JWKSConfig.MinInterval] ([DefaultJWKSMinInterval], a
// minute), so a flood of tokens with made-up kids costs the provider one
// request a minute; concurrent requests share one fetch, and no lock is
// held while it runs. The price is a delay: a made-up kid just before the
// provider starts signing with a new key uses up the fetch, and tokens of
// the new key are refused for up to MinInterval; call [JWKS.Refresh] once
// a new key is published, or set a shorter MinInterval. A fetch lasts at
// most [JWKSConfig.Timeout] ([DefaultJWKSTimeout], 5 seconds) and reads
// at most [JWKSConfig.MaxBytes] ([DefaultJWKSMaxBytes], 1 MiB); when it
// fails (the provider is down or slow, or serves something that is not a
// usable key set), the last good set stays in use, however old, and a
// token that needs a key the set lacks is refused (401). The URL must be
// https, or http to a loopback address ([JWKSConfig.AllowHTTP] lifts that
// on a trusted network); a fetch follows at most three redirects, none to
// plain http once the URL or a redirect was https. Call [JWKS.Refresh] at
// start to fail early when the provider cannot be reached.
//
// From a set, the keys used are RSA keys of [MinRSABits] (2048) to
// [MaxRSABits] (8192) bits (RS256), P-256 keys (ES256) and Ed25519 keys
// (EdDSA), each pinned to that algorithm: a key whose alg says otherwise
// (RS512, PS256), whose use is not "sig" or whose key_ops lack "verify",
// and a symmetric ("oct") key are skipped, as are keys whose kid another
// key has too; certificates (x5c) are not read.
//
// A provider's tokens are not the kit's: they carry no kit session (their
// sid names the provider's, and [Token.Session] is empty), [Login],
// [Refresher] and [Logout] do not apply, and [Config.Tokens] cannot be set
// with public keys: revoking them is the provider's business. A token
// stays good until its exp, so keep their lifetimes short (minutes), and
// withdraw a compromised key at the provider: the Verifier stops trusting
// it at the next fetch, within MaxAge. [Recheck] and [Verifier.Recheck]
// return nil for them.
//
// # Revocation
//
// With [Config.Tokens] (the Tokens method of the stores of
// [github.com/gqlkit/gqlkit/postgres] and [github.com/gqlkit/gqlkit/sqlite]
// returns one) every token the verifier accepts costs one lookup,
// [TokenStore.Revoked], which refuses it when
//
//   - its id (jti) was logged out ([TokenStore.RevokeToken], for a token
//     without a session; the entry goes when the token expires);
//   - it was issued with a session (its sid claim: a [Login] or a
//     [Refresher] with refresh tokens issued it) that was revoked
//     ([Logout], a reuse of a refresh token: [TokenStore.RevokeSession])
//     or that the store does not know (never started, or deleted after
//     its end);
//   - its user logged out everywhere ([TokenStore.RevokeUser]) after its
//     session began or, for a token without a session, after it was
//     issued (auth_time, else iat).
//
// Every revocation is one write that takes effect from the next request
// on, whatever the session's refresh tokens do meanwhile: the session is
// checked where its tokens are used, so the refresh tokens and access
// tokens that a refresh racing the revocation hands out are refused too.
// When the store cannot answer, the token is refused with an error
// wrapping [ErrUnavailable], which the middlewares answer with 503
// {"message":"Service unavailable."}: revocation fails closed.
//
// The cutoff of "log out everywhere" is rounded up to the whole second, as
// iat and auth_time have whole seconds, and compared with session starts
// stored to the microsecond: a token or session of the cutoff's own second
// is over too, begun before the cutoff or after it. A login that completes
// within that second therefore answers 200 with tokens that are refused
// at their first use; the user logs in again from the next second on. The
// rounding also absorbs part of a difference between the clock of the
// host that writes the cutoff (the server's users logout command, say)
// and the clocks of the servers that stamp the sessions: a writer behind
// by less than what is left of the cutoff's second still ends every
// session begun before it; keep the clocks synchronised all the same. A
// user's cutoff only moves forward: "log out everywhere" again with an
// earlier time (a host whose clock is behind) leaves the later cutoff in
// place, so that no session it ended comes back.
//
// A middleware checks a token when the request's headers arrive, and its
// body follows as slowly as the client sends it. A handler that writes
// calls [Recheck] once it has read the body, right before the write: one
// more lookup, so that a revocation that landed meanwhile stops the write
// (401, or 503 when the store cannot answer). Without it, a stolen token
// could be used to open requests ahead of time and finish them after the
// logout. The articles handler and the GraphQL mutation gate
// ([Verifier.Recheck]) do so.
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
// through [Config.Logger], else the logger of the request's reqlog.Handler,
// else [slog.Default], with the request's context and its request id: at
// debug level for a
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
// Guessing is throttled (see Login throttling below), and
// [LoginConfig.MaxConcurrentChecks] bounds the bcrypt comparisons that run
// at once (by default to half the CPUs), so that a flood of logins cannot
// starve the rest of the service; the logins beyond it wait their turn,
// [LoginConfig.MaxWait] at most, and no more than [LoginConfig.MaxInFlight]
// are under way at once: the others get 503 with Retry-After at once.
//
// # Login throttling
//
// [Login] counts failed logins (every 401) under two keys, and while
// either has reached its limit within its window it answers 429 "Too many
// login attempts. Please try again in N seconds." with Retry-After: N,
// without looking the user up or checking the password:
//
//   - the pair of e-mail address (any case) and client address:
//     [DefaultClientFailures] (5) per [DefaultClientWindow] (a minute), as
//     Laravel's ThrottlesLogins; a successful login of the pair resets it;
//   - the e-mail address alone, whatever the client address:
//     [DefaultAccountFailures] (20) per [DefaultAccountWindow] (15
//     minutes); a successful login leaves it as it is.
//
// A key's window opens at its first failure and lasts its length; N is
// the time left of the last window that refuses. [LoginConfig.ClientLimit]
// and [LoginConfig.AccountLimit] change the limits or turn them off. The
// client address is the connection's, or, behind the proxies named in
// [LoginConfig.TrustedProxies], the rightmost untrusted one of
// X-Forwarded-For; an IPv6 address counts as its /64, which one
// subscriber or host gets whole and can spread its requests over. The keys
// are digests: a throttle holds no e-mail address, nor a password typed
// into that field.
//
// Only failures count, recorded after the password check, never attempts:
// the attempts of one e-mail address run one after the other in the
// process, each reading the counts, checking the password and recording
// the outcome before the next begins. Guesses sent at once therefore get
// no more checks than guesses sent one by one, and a right password is
// never refused as a guess because other logins are in flight: it gets a
// 429 only when failures were counted. Logins in flight may still refuse
// it for capacity, with a 503 and Retry-After: 1 that counts as nothing,
// once [LoginConfig.MaxInFlight] logins are under way or after it waited
// [LoginConfig.MaxWait] behind the other logins of its account and for a
// bcrypt slot. The counts live in a [LoginThrottle]: by default a
// [MemoryThrottle], the process's own and bounded in size; the
// LoginThrottle of a SQL store (the Throttle method of the postgres and
// sqlite stores) shares them between the processes on one database. Those see
// each other's failures but not each other's turns: P processes guessing
// at one account at the same moment check at most P-1 passwords more than
// the limit, once per window. A throttle that fails closes the login
// (503).
//
// Why an account limit, and why these numbers. The pair's limit alone
// leaves one account open to a guesser with many addresses, five guesses
// a minute from each: a botnet, or an IPv6 /48 and its 65,536 /64s. OWASP's
// Authentication Cheat Sheet therefore ties the count of failures to the
// account rather than the source address, and NIST SP 800-63B (§5.2.2)
// asks verifiers to limit the failed attempts on one account. The price
// is the one OWASP warns of: whoever knows an e-mail address can keep its
// owner from logging in with a password, at the cost of 20 guesses every
// 15 minutes. The choice weighs that:
//
//   - The lockout is never permanent, so it needs no administrator and no
//     unlock path: the owner waits at most 15 minutes after the guessing
//     stops, and the 429 says how long. A temporary lockout with a
//     threshold well above typing mistakes is what OWASP recommends over a
//     permanent one.
//   - 20 failures leave room for an owner's own mistakes and those of a
//     household behind one address (each address has its 5 a minute
//     first); OWASP's common example of 3 to 5 would make keeping an
//     account locked cheaper still.
//   - The guessing left is 20 per 15 minutes whatever the addresses: 80 an
//     hour, about 1,900 a day, which finds only the commonest passwords.
//     NIST's cap (no more than 100 consecutive failures, then a lock that
//     only a success or an administrator lifts) is stricter than a window
//     and turns every targeted account into a denial of service until
//     someone acts; services that need it set AccountLimit to
//     {Failures: 100, Window: 24 * time.Hour} or longer, and accept that.
//   - A success does not reset the account's count, so that an attacker's
//     failures stay counted while the owner (or a script of theirs) logs
//     in now and then; otherwise every login of the owner would grant 20
//     more guesses. The pair's count is reset: it is the owner's own
//     address that just proved itself.
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
// A [Verifier], an [Issuer], a [Refresher] and a [Logout] are immutable
// after construction and safe for concurrent use. A [JWKS] is safe for
// concurrent use: its cached key set is guarded, replaced whole after a
// fetch, and read without waiting for a fetch unless the token needs it. A [Login] is safe for
// concurrent use: its state (the turns of the accounts logging in, the
// logins under way) is guarded. [MemoryThrottle] is safe for concurrent
// use.
package auth
