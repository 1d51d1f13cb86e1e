package auth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/validate"
)

// Defaults of [LoginConfig].
const (
	// DefaultCost is the bcrypt cost of [HashPassword] and, when
	// [LoginConfig.Cost] is zero, of the stand-in hash of [Login].
	DefaultCost = bcrypt.DefaultCost

	// DefaultMaxBodyBytes is the largest login request body when
	// [LoginConfig.MaxBodyBytes] is zero.
	DefaultMaxBodyBytes = 64 << 10

	// MaxPasswordBytes is the longest password, in bytes: bcrypt reads no
	// further, so a longer one would match whatever followed its 72nd
	// byte. [HashPassword] refuses a longer one and [Login] never lets
	// one in.
	MaxPasswordBytes = 72
)

// Users looks up the credentials of a user by e-mail address; a store of
// users implements it for [Login].
type Users interface {
	// PasswordHash returns the id and bcrypt password hash of the user with
	// the given e-mail address (an empty hash: the user cannot log in with a
	// password). When there is no such user, the error is (or wraps)
	// ErrUserNotFound. Any other error is logged and answered with a 500.
	PasswordHash(ctx context.Context, email string) (id int64, hash []byte, err error)
}

// LoginConfig configures a [Login]. Its zero value means the defaults.
type LoginConfig struct {
	// Cost is the bcrypt cost of the stored password hashes. For an unknown
	// e-mail address Login checks the password against a stand-in hash of
	// this cost, so that the answer takes as long as for a known one. Zero
	// means DefaultCost.
	Cost int

	// MaxBodyBytes caps the request body; a larger one is a 413. Zero means
	// DefaultMaxBodyBytes; a negative value is an error.
	MaxBodyBytes int64

	// Logger receives why a login was refused or failed (never the
	// password), with the request id. nil means the request's zerolog
	// logger (reqlog puts one in the context), else a JSON logger on
	// standard error; use a pointer to zerolog.Nop() to log nothing.
	Logger *zerolog.Logger

	// Throttle counts failed logins per e-mail address (lower-cased) and
	// client address, and makes a pair that failed too often wait (429).
	// nil means a [MemoryThrottle] of this Login's own, allowing
	// [DefaultLoginAttempts] (5) failures per [DefaultLoginWindow] (one
	// minute); [NoThrottle]{} turns throttling off.
	Throttle LoginThrottle

	// TrustedProxies are the addresses of the reverse proxies in front of
	// the service. A request whose connection comes from one of them is
	// counted against the client address the proxies put in
	// X-Forwarded-For: the rightmost one outside these prefixes. Empty
	// means X-Forwarded-For is ignored and the client is the connection's
	// peer.
	TrustedProxies []netip.Prefix

	// MaxConcurrentChecks bounds the bcrypt comparisons that run at once,
	// so that a flood of logins leaves CPU to the rest of the service;
	// further logins wait their turn. Zero means half of GOMAXPROCS (at
	// least one); a negative value is an error.
	MaxConcurrentChecks int

	// Now is the clock of the throttle; nil means time.Now. Tests set it.
	Now func() time.Time

	// Refresh, when set, makes a successful login also start a refresh
	// token family and set its first token in the refresh_token cookie
	// ([Refresher.SetCookie]); the body stays the same. When the store
	// cannot record the token, the login answers 503 and issues nothing.
	Refresh *Refresher
}

// Login is the login endpoint, an [http.Handler] for POST requests with a
// JSON body {"email": "…", "password": "…"}. Build it with [NewLogin]; it is
// safe for concurrent use.
//
// Answers, all JSON and all with Cache-Control: no-store:
//
//   - 200 {"access_token": "…", "token_type": "bearer", "expires_in": 3600}
//     (expires_in in seconds) for good credentials, and with
//     [LoginConfig.Refresh] the refresh_token cookie;
//   - 401 {"message": "Invalid credentials."}, with WWW-Authenticate: Bearer,
//     for an unknown e-mail address or a wrong password alike;
//   - 422 {"message": "…", "errors": {"email": […], "password": […]}} when a
//     field is missing, empty or not a string (Laravel's shape and wording),
//     when the e-mail address holds a control character or the password a
//     NUL; the e-mail address is trimmed, the password is taken as sent;
//   - 429 {"message": "Too many login attempts. Please try again in N
//     seconds."}, with Retry-After: N, when the e-mail address failed to
//     log in too often from the client's address (see [LoginConfig.Throttle]);
//     the password is then not checked at all;
//   - 400 for malformed JSON or a body that is not a JSON object, 413 for a
//     body over the cap, 415 when the Content-Type is not JSON, 405 with
//     Allow: POST for other methods, and 500 {"message":
//     "Internal server error."} when the lookup fails (the error is logged);
//   - 503 {"message": "Service unavailable."} when the throttle fails (the
//     error is logged): the login fails closed, checking no password and
//     issuing no token that the throttle has not checked and recorded;
//   - 499 {"message": "The request was canceled."} (nginx's status, for
//     the access log) when the client goes away while the login waits for
//     its turn to check the password (see [LoginConfig.MaxConcurrentChecks]),
//     and 503 as above when the request's deadline passes then; both are
//     logged at info level.
//
// Every attempt of the pair (e-mail address, client address) that passes
// the body's validation is counted, before the user is looked up, in one
// step with the decision ([LoginThrottle.Attempt]), so that concurrent
// guesses of one pair get no more password checks than sequential ones;
// a token resets the count. An attempt whose client leaves while it waits
// for its turn counts too.
type Login struct {
	users    Users
	issuer   *Issuer
	maxBody  int64
	logger   *zerolog.Logger                   // nil: the request's
	dummy    []byte                            // stand-in hash for unknown users
	compare  func(hash, password []byte) error // bcrypt.CompareHashAndPassword; replaced in tests
	throttle LoginThrottle
	proxies  []netip.Prefix
	slots    chan struct{} // one element per password check under way
	now      func() time.Time
	refresh  *Refresher // nil: no refresh token
}

// NewLogin returns the login endpoint checking credentials against users and
// issuing tokens with issuer. It computes a bcrypt hash of cfg.Cost once, so
// it takes as long as one password check.
func NewLogin(users Users, issuer *Issuer, cfg LoginConfig) (*Login, error) {
	var errs []error
	if users == nil {
		errs = append(errs, errors.New("auth: NewLogin needs Users"))
	}
	if issuer == nil {
		errs = append(errs, errors.New("auth: NewLogin needs an Issuer"))
	}
	cost := cfg.Cost
	if cost == 0 {
		cost = DefaultCost
	}
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		errs = append(errs, fmt.Errorf("auth: LoginConfig.Cost is %d; bcrypt needs %d..%d", cfg.Cost, bcrypt.MinCost, bcrypt.MaxCost))
	}
	maxBody := cfg.MaxBodyBytes
	switch {
	case maxBody == 0:
		maxBody = DefaultMaxBodyBytes
	case maxBody < 0:
		errs = append(errs, fmt.Errorf("auth: LoginConfig.MaxBodyBytes is %d; it must not be negative", maxBody))
	}
	if cfg.MaxConcurrentChecks < 0 {
		errs = append(errs, fmt.Errorf("auth: LoginConfig.MaxConcurrentChecks is %d; it must not be negative", cfg.MaxConcurrentChecks))
	}
	proxies, err := trustedPrefixes(cfg.TrustedProxies)
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	slots := cfg.MaxConcurrentChecks
	if slots == 0 {
		slots = max(1, runtime.GOMAXPROCS(0)/2)
	}
	throttle := cfg.Throttle
	if throttle == nil {
		throttle = NewMemoryThrottle(DefaultLoginAttempts, DefaultLoginWindow)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte(rand.Text()), cost)
	if err != nil {
		return nil, fmt.Errorf("auth: computing the stand-in hash: %w", err)
	}
	return &Login{
		users:    users,
		issuer:   issuer,
		maxBody:  maxBody,
		logger:   cfg.Logger,
		dummy:    dummy,
		compare:  bcrypt.CompareHashAndPassword,
		throttle: throttle,
		proxies:  proxies,
		refresh:  cfg.Refresh,
		slots:    make(chan struct{}, slots),
		now:      now,
	}, nil
}

// tokenResponse is the body of a successful login (jwt-auth's shape).
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

// ServeHTTP implements [http.Handler].
func (l *Login) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !postOnly(w, r) {
		return
	}
	if !httpjson.IsJSON(r.Header.Get("Content-Type")) {
		httpjson.WriteMessage(w, http.StatusUnsupportedMediaType, httpjson.MessageNotJSON)
		return
	}
	email, password, ok := l.readCredentials(w, r)
	if !ok {
		return
	}

	logger := ctxlog.For(r.Context(), l.logger)
	key := strings.ToLower(email) + "|" + clientAddress(r, l.proxies)
	if l.throttled(w, r, key, logger) {
		return
	}
	id, hash, err := l.users.PasswordHash(r.Context(), email)
	known := !errors.Is(err, ErrUserNotFound)
	if err != nil && known {
		logger.Error().Err(err).Msg("auth: login: looking up the user")
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
	}
	if !known {
		hash = nil
	}
	answered, err := l.checkPassword(w, r, key, hash, password, logger)
	if answered {
		return // throttled meanwhile, the throttle failed, or the client left
	}
	switch {
	case !known:
		logger.Info().Msg("auth: login refused: unknown e-mail address")
	case len(hash) == 0:
		logger.Info().Int64("user_id", id).Msg("auth: login refused: the user has no password")
	case errors.Is(err, bcrypt.ErrMismatchedHashAndPassword):
		logger.Info().Int64("user_id", id).Msg("auth: login refused: wrong password")
	case err != nil:
		logger.Error().Err(err).Int64("user_id", id).Msg("auth: login refused: the stored password hash is unusable")
	}
	if err != nil {
		writeInvalidCredentials(w)
		return
	}
	var refresh, session string
	if l.refresh != nil {
		if refresh, session, err = l.refresh.Start(r.Context(), id); err != nil {
			logger.Error().Err(err).Int64("user_id", id).Msg("auth: login: storing the refresh token")
			httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
			return
		}
	}
	token, err := l.issuer.issue(id, session)
	if err != nil {
		logger.Error().Err(err).Int64("user_id", id).Msg("auth: login: issuing the token")
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
	}
	if refresh != "" {
		l.refresh.SetCookie(w, refresh)
	}
	httpjson.WriteValue(w, http.StatusOK, tokenResponse{
		AccessToken: token,
		TokenType:   "bearer",
		ExpiresIn:   int64(l.issuer.TTL().Seconds()),
	})
}

// throttled counts an attempt of key, and reports whether key must wait
// before it may log in instead, after answering 429 (or 503 when the
// throttle fails).
func (l *Login) throttled(w http.ResponseWriter, r *http.Request, key string, logger *zerolog.Logger) bool {
	wait, err := l.throttle.Attempt(r.Context(), key, l.now())
	switch {
	case err != nil:
		logger.Error().Err(err).Msg("auth: login: checking the throttle")
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
		return true
	case wait <= 0:
		return false
	}
	seconds := int64((wait + time.Second - 1) / time.Second) // rounded up, at least 1
	logger.Info().Int64("retry_after", seconds).Msg("auth: login refused: too many failed attempts")
	w.Header().Set("Retry-After", strconv.FormatInt(seconds, 10))
	httpjson.WriteMessage(w, http.StatusTooManyRequests,
		"Too many login attempts. Please try again in "+strconv.FormatInt(seconds, 10)+" seconds.")
	return true
}

// checkPassword compares password with hash, or with the stand-in hash
// when hash is empty (then err is never nil), holding one of the slots of
// [LoginConfig.MaxConcurrentChecks], and after a match resets the
// throttle's count of key before it lets the slot go. When answered is
// true it has answered instead: the request's context ended before a slot
// was free, or the throttle failed.
func (l *Login) checkPassword(w http.ResponseWriter, r *http.Request, key string, hash []byte, password string, logger *zerolog.Logger) (answered bool, err error) {
	select {
	case l.slots <- struct{}{}:
		defer func() { <-l.slots }()
	case <-r.Context().Done():
		logger.Info().Err(context.Cause(r.Context())).Msg("auth: login: gave up waiting to check the password")
		if errors.Is(r.Context().Err(), context.Canceled) { // the client went away: nobody reads this
			httpjson.WriteMessage(w, apierror.StatusClientClosedRequest, "The request was canceled.")
		} else {
			httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
		}
		return true, nil
	}
	if len(hash) == 0 {
		err = l.compare(l.dummy, []byte(password)) // take as long as for a known user
		if err == nil {
			err = bcrypt.ErrMismatchedHashAndPassword
		}
	} else {
		err = l.compare(hash, []byte(password))
	}
	if err == nil && len(password) > MaxPasswordBytes {
		// bcrypt compared the first 72 bytes only: the rest must not be
		// free to choose. (The comparison ran all the same, so that the
		// answer takes as long as any other.)
		err = bcrypt.ErrMismatchedHashAndPassword
	}
	if err != nil {
		return false, err // the attempt is counted already
	}
	// Recorded even when the client has gone: the check was made.
	if recErr := l.throttle.Reset(context.WithoutCancel(r.Context()), key); recErr != nil {
		logger.Error().Err(recErr).Msg("auth: login: recording the attempt with the throttle")
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, apierror.MessageUnavailable)
		return true, nil
	}
	return false, err
}

// readCredentials decodes and validates the body. When it returns false it
// has written the answer.
func (l *Login) readCredentials(w http.ResponseWriter, r *http.Request) (email, password string, ok bool) {
	fields, f := httpjson.ReadObject(w, r, l.maxBody)
	if f != nil {
		if f.Err != nil {
			ctxlog.For(r.Context(), l.logger).Info().Err(f.Err).Msg("auth: login: reading the body")
		}
		f.Write(w)
		return "", "", false
	}
	var problems validate.Failures
	field := func(name string, trim bool, refuse func(string) string) string {
		s, problem := stringField(fields[name], name, trim)
		if problem == "" {
			problem = refuse(s)
		}
		if problem != "" {
			problems.Add(name, problem)
		}
		return s
	}
	email = field("email", true, emailProblem)
	password = field("password", false, passwordProblem)
	if len(problems) > 0 {
		httpjson.WriteValidationFailed(w, problems)
		return "", "", false
	}
	return email, password, true
}

// stringField validates a required string field the way Laravel's
// "required|string" does after its TrimStrings and
// ConvertEmptyStringsToNull middlewares. It returns the value, or the
// message of the first rule that fails.
func stringField(raw json.RawMessage, name string, trim bool) (string, string) {
	required := "The " + name + " field is required."
	if len(raw) == 0 || string(raw) == "null" {
		return "", required
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", "The " + name + " field must be a string."
	}
	if trim {
		s = strings.TrimSpace(s)
	}
	if s == "" {
		return "", required
	}
	return s, ""
}

// Messages of the 422 answering characters a login field may not hold.
const (
	msgEmailControl = "The email field must not contain control characters."
	msgPasswordNUL  = "The password field must not contain NUL characters."
	msgEmailTooLong = "The email field must not be greater than 255 characters."
)

// maxEmailChars is the longest e-mail address looked up (Laravel's
// max:255, the users table's VARCHAR(255)): no user has a longer one, and
// the throttle keeps one entry per address tried.
const maxEmailChars = 255

// emailProblem refuses an e-mail address holding a control character
// (C0, DEL or C1): no address has one, and a database may not even take
// it (PostgreSQL refuses NUL in text), so it is a 422, never a lookup.
func emailProblem(email string) string {
	switch {
	case strings.IndexFunc(email, unicode.IsControl) >= 0:
		return msgEmailControl
	case utf8.RuneCountInString(email) > maxEmailChars:
		return msgEmailTooLong
	}
	return ""
}

// passwordProblem refuses a password holding NUL, which [HashPassword]
// refuses too, so that no stored password has one. Other characters are
// the user's business: a password is compared, never stored or shown.
func passwordProblem(password string) string {
	if strings.IndexByte(password, 0) >= 0 {
		return msgPasswordNUL
	}
	return ""
}

// postOnly starts the answer of the auth endpoints: Cache-Control: no-store
// always, and 405 with Allow: POST for any other method, when it returns
// false.
func postOnly(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method == http.MethodPost {
		return true
	}
	w.Header().Set("Allow", http.MethodPost)
	httpjson.WriteMessage(w, http.StatusMethodNotAllowed, httpjson.MessageMethod)
	return false
}

// writeInvalidCredentials writes the one 401 of a failed login.
func writeInvalidCredentials(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	httpjson.WriteMessage(w, http.StatusUnauthorized, "Invalid credentials.")
}

// HashPassword returns the bcrypt hash of password at cost (0 means
// [DefaultCost]; tests pass bcrypt.MinCost, 4, to stay fast), for storing
// with a new user. It refuses an empty password, one holding NUL (which
// [Login] refuses with a 422), one longer than [MaxPasswordBytes] (the
// error then wraps [bcrypt.ErrPasswordTooLong]) and a cost outside
// bcrypt's 4..31.
func HashPassword(password string, cost int) ([]byte, error) {
	if cost == 0 {
		cost = DefaultCost
	}
	switch {
	case password == "":
		return nil, errors.New("auth: password is empty")
	case strings.IndexByte(password, 0) >= 0:
		return nil, errors.New("auth: password holds a NUL character")
	case len(password) > MaxPasswordBytes:
		return nil, fmt.Errorf("auth: the password is %d bytes long; at most %d are allowed: %w", len(password), MaxPasswordBytes, bcrypt.ErrPasswordTooLong)
	case cost < bcrypt.MinCost || cost > bcrypt.MaxCost:
		return nil, fmt.Errorf("auth: bcrypt cost %d is outside %d..%d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return nil, fmt.Errorf("auth: hashing password: %w", err)
	}
	return hash, nil
}
