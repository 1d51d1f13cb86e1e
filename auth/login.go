package auth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/errcode"
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
	// password), logged with the request's context and its request id.
	// nil means the logger of the request's reqlog.Handler, else
	// slog.Default(); use slog.New(slog.DiscardHandler) to log nothing.
	Logger *slog.Logger

	// Throttle keeps the counts of failed logins that ClientLimit and
	// AccountLimit are checked against. nil means a [MemoryThrottle] of
	// this Login's own, of [DefaultThrottleKeys] keys; the throttle of a
	// SQL store (the Throttle method of the postgres and sqlite stores)
	// makes the processes on one database count together; [NoThrottle]{} turns throttling
	// off.
	Throttle LoginThrottle

	// ClientLimit bounds the failed logins of one e-mail address
	// (lower-cased) from one client address (an IPv6 client counts as its
	// /64): zero fields mean [DefaultClientFailures] (5) per
	// [DefaultClientWindow] (one minute), Laravel's; a negative Failures
	// turns it off. A successful login of the pair resets its count.
	ClientLimit LoginLimit

	// AccountLimit bounds the failed logins of one e-mail address from
	// all client addresses together: zero fields mean
	// [DefaultAccountFailures] (20) per [DefaultAccountWindow] (15
	// minutes); a negative Failures turns it off. A successful login does
	// not reset it (see "Login throttling" in the package documentation).
	AccountLimit LoginLimit

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

	// MaxInFlight bounds the logins under way at once, from the end of
	// reading their body to their answer: waiting for their turn, reading
	// the throttle, looking the user up, checking the password. A login
	// beyond it is answered 503 with Retry-After at once, so that a flood
	// cannot pile up requests, and their memory, in front of the database
	// or the bcrypt slots. Zero means 64 for each of MaxConcurrentChecks;
	// a negative value is an error.
	MaxInFlight int

	// MaxWait bounds how long a login waits for its turn, both waits
	// together; then it is answered 503 with Retry-After. Zero means
	// [DefaultMaxLoginWait] (10 seconds); a negative value is an error.
	MaxWait time.Duration

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
//     log in too often from the client's address, or from all addresses
//     together ([LoginConfig.ClientLimit], [LoginConfig.AccountLimit]);
//     the user is then not looked up and the password not checked;
//   - 400 for malformed JSON or a body that is not a JSON object, 413 for a
//     body over the cap, 415 when the Content-Type is not JSON, 405 with
//     Allow: POST for other methods, and 500 {"message":
//     "Internal server error."} when the lookup fails (the error is logged);
//   - 503 {"message": "Service unavailable."} when the throttle fails, or
//     does not record the outcome within [LoginConfig.MaxWait] (the error
//     is logged): the login fails closed, checking no password that the
//     throttle has not allowed and issuing no token whose check it has not
//     recorded;
//   - 503 {"message": "Service unavailable."} with Retry-After: 1 when the
//     login could not have its turn: [LoginConfig.MaxInFlight] logins were
//     under way already, or it waited [LoginConfig.MaxWait], or the
//     request's deadline passed; 499 {"message": "The request was
//     canceled."} (nginx's status, for the access log) when the client went
//     away before its answer was known. These are logged at info level and
//     count as no failure: no password was checked.
//
// # The order of a login
//
// A login waits first for its account's turn: the logins of one e-mail
// address (lower-cased) run one after the other in the process, so that
// concurrent guesses get no more password checks than sequential ones.
// With the turn, it reads the failures of its two keys, refuses the login
// (429) when either has reached its limit, looks the user up, waits for a
// bcrypt slot ([LoginConfig.MaxConcurrentChecks]), checks the password, and
// records the outcome, all before it gives the turn to the next login:
// after a wrong password it counts a failure of both keys
// ([LoginThrottle.Fail]), after a right one it resets the pair's
// ([LoginThrottle.Reset]); a token is issued after that. Only failures
// count, never attempts: a correct password is never refused as a guess
// (429) because of logins in flight, only because failures were counted,
// and a request whose password was never checked (refused, or given up
// while waiting) counts as nothing. Logins in flight do take capacity: a
// correct password gets the 503 above once MaxInFlight logins are under
// way, or after MaxWait queued behind the other logins of its account and
// for a bcrypt slot.
//
// Processes sharing the throttle of a SQL store see each other's failures but not
// each other's turns: P processes guessing one account at once may
// check P-1 passwords more than the limit allows, once per window.
//
// The account's limit weighs guessing against lockout (see "Login
// throttling" in the package documentation): it holds a guesser with any
// number of addresses to 20 guesses per 15 minutes, and lets him keep the
// owner from a password login for as long as he keeps guessing, 15
// minutes at a time, never for good.
type Login struct {
	users        Users
	issuer       *Issuer
	maxBody      int64
	logger       *slog.Logger                      // nil: the request's
	dummy        []byte                            // stand-in hash for unknown users
	compare      func(hash, password []byte) error // bcrypt.CompareHashAndPassword; replaced in tests
	throttle     LoginThrottle
	clientLimit  LoginLimit
	accountLimit LoginLimit
	proxies      []netip.Prefix
	slots        chan struct{} // holds a value for each free bcrypt slot
	turns        turns         // of the accounts logging in
	inFlight     atomic.Int64  // logins under way
	maxInFlight  int64
	maxWait      time.Duration
	now          func() time.Time
	refresh      *Refresher // nil: no refresh token
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
	if cfg.MaxInFlight < 0 {
		errs = append(errs, fmt.Errorf("auth: LoginConfig.MaxInFlight is %d; it must not be negative", cfg.MaxInFlight))
	}
	if cfg.MaxWait < 0 {
		errs = append(errs, fmt.Errorf("auth: LoginConfig.MaxWait is %v; it must not be negative", cfg.MaxWait))
	}
	clientLimit, err := cfg.ClientLimit.orDefault("ClientLimit", DefaultClientFailures, DefaultClientWindow)
	errs = append(errs, err)
	accountLimit, err := cfg.AccountLimit.orDefault("AccountLimit", DefaultAccountFailures, DefaultAccountWindow)
	errs = append(errs, err)
	proxies, err := trustedPrefixes(cfg.TrustedProxies)
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	slots := cfg.MaxConcurrentChecks
	if slots == 0 {
		slots = max(1, runtime.GOMAXPROCS(0)/2)
	}
	maxInFlight := cfg.MaxInFlight
	if maxInFlight == 0 {
		maxInFlight = inFlightPerCheck * slots
	}
	maxWait := cfg.MaxWait
	if maxWait == 0 {
		maxWait = DefaultMaxLoginWait
	}
	throttle := cfg.Throttle
	if throttle == nil {
		throttle = NewMemoryThrottle(DefaultThrottleKeys)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte(rand.Text()), cost)
	if err != nil {
		return nil, fmt.Errorf("auth: computing the stand-in hash: %w", err)
	}
	l := &Login{
		users:        users,
		issuer:       issuer,
		maxBody:      maxBody,
		logger:       cfg.Logger,
		dummy:        dummy,
		compare:      bcrypt.CompareHashAndPassword,
		throttle:     throttle,
		clientLimit:  clientLimit,
		accountLimit: accountLimit,
		proxies:      proxies,
		refresh:      cfg.Refresh,
		slots:        make(chan struct{}, slots),
		maxInFlight:  int64(maxInFlight),
		maxWait:      maxWait,
		now:          now,
	}
	for range slots {
		l.slots <- struct{}{}
	}
	return l, nil
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
	id, no := l.authenticate(r, email, password, logger)
	if no.status != 0 {
		no.write(w)
		return
	}
	var err error
	var refresh, session string
	if l.refresh != nil {
		if refresh, session, err = l.refresh.Start(r.Context(), id); err != nil {
			ctxlog.Log(r.Context(), logger, slog.LevelError, "auth: login: storing the refresh token", ctxlog.Err(err), slog.Int64("user_id", id))
			httpjson.WriteMessage(w, http.StatusServiceUnavailable, errcode.MessageUnavailable)
			return
		}
	}
	token, err := l.issuer.issue(id, session)
	if err != nil {
		ctxlog.Log(r.Context(), logger, slog.LevelError, "auth: login: issuing the token", ctxlog.Err(err), slog.Int64("user_id", id))
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

// readCredentials decodes and validates the body. When it returns false it
// has written the answer.
func (l *Login) readCredentials(w http.ResponseWriter, r *http.Request) (email, password string, ok bool) {
	fields, f := httpjson.ReadObject(w, r, l.maxBody)
	if f != nil {
		if f.Err != nil {
			ctxlog.Log(r.Context(), l.logger, slog.LevelInfo, "auth: login: reading the body", ctxlog.Err(f.Err))
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
