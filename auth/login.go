package auth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
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
}

// Login is the login endpoint, an [http.Handler] for POST requests with a
// JSON body {"email": "…", "password": "…"}. Build it with [NewLogin]; it is
// safe for concurrent use.
//
// Answers, all JSON and all with Cache-Control: no-store:
//
//   - 200 {"access_token": "…", "token_type": "bearer", "expires_in": 3600}
//     (expires_in in seconds) for good credentials;
//   - 401 {"message": "Invalid credentials."}, with WWW-Authenticate: Bearer,
//     for an unknown e-mail address or a wrong password alike;
//   - 422 {"message": "…", "errors": {"email": […], "password": […]}} when a
//     field is missing, empty or not a string (Laravel's shape and wording),
//     when the e-mail address holds a control character or the password a
//     NUL; the e-mail address is trimmed, the password is taken as sent;
//   - 400 for malformed JSON or a body that is not a JSON object, 413 for a
//     body over the cap, 415 when the Content-Type is not JSON, 405 with
//     Allow: POST for other methods, and 500 {"message":
//     "Internal server error."} when the lookup fails (the error is logged).
type Login struct {
	users   Users
	issuer  *Issuer
	maxBody int64
	logger  *zerolog.Logger                   // nil: the request's
	dummy   []byte                            // stand-in hash for unknown users
	compare func(hash, password []byte) error // bcrypt.CompareHashAndPassword; replaced in tests
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
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte(rand.Text()), cost)
	if err != nil {
		return nil, fmt.Errorf("auth: computing the stand-in hash: %w", err)
	}
	return &Login{
		users:   users,
		issuer:  issuer,
		maxBody: maxBody,
		logger:  cfg.Logger,
		dummy:   dummy,
		compare: bcrypt.CompareHashAndPassword,
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
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpjson.WriteMessage(w, http.StatusMethodNotAllowed, httpjson.MessageMethod)
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
	id, hash, err := l.users.PasswordHash(r.Context(), email)
	switch {
	case errors.Is(err, ErrUserNotFound):
		_ = l.compare(l.dummy, []byte(password)) // take as long as for a known user
		logger.Info().Msg("auth: login refused: unknown e-mail address")
		writeInvalidCredentials(w)
		return
	case err != nil:
		logger.Error().Err(err).Msg("auth: login: looking up the user")
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
	case len(hash) == 0:
		_ = l.compare(l.dummy, []byte(password))
		logger.Info().Int64("user_id", id).Msg("auth: login refused: the user has no password")
		writeInvalidCredentials(w)
		return
	}
	err = l.compare(hash, []byte(password))
	if err == nil && len(password) > MaxPasswordBytes {
		// bcrypt compared the first 72 bytes only: the rest must not be
		// free to choose. (The comparison ran all the same, so that the
		// answer takes as long as any other.)
		err = bcrypt.ErrMismatchedHashAndPassword
	}
	if err != nil {
		if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			logger.Info().Int64("user_id", id).Msg("auth: login refused: wrong password")
		} else {
			logger.Error().Err(err).Int64("user_id", id).Msg("auth: login refused: the stored password hash is unusable")
		}
		writeInvalidCredentials(w)
		return
	}
	token, err := l.issuer.Issue(id)
	if err != nil {
		logger.Error().Err(err).Int64("user_id", id).Msg("auth: login: issuing the token")
		httpjson.WriteMessage(w, http.StatusInternalServerError, httpjson.MessageInternal)
		return
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
			ctxlog.For(r.Context(), l.logger).Info().Err(f.Err).Msg("auth: login: reading the body")
		}
		f.Write(w)
		return "", "", false
	}
	var problems httpjson.Fields
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
)

// emailProblem refuses an e-mail address holding a control character
// (C0, DEL or C1): no address has one, and a database may not even take
// it (PostgreSQL refuses NUL in text), so it is a 422, never a lookup.
func emailProblem(email string) string {
	if strings.IndexFunc(email, unicode.IsControl) >= 0 {
		return msgEmailControl
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
