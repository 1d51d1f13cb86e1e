package graphqlhttp

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/stall"
	"github.com/gqlkit/gqlkit/limits"
)

// Defaults of [Config].
const (
	// DefaultCacheSize is the number of documents the cache keeps.
	DefaultCacheSize = graphql.DefaultCacheSize
	// DefaultCacheBytes bounds the memory the cached documents are
	// estimated to take (see Config.CacheBytes).
	DefaultCacheBytes = graphql.DefaultCacheBytes
	// DefaultMaxResponseBytes bounds the data of one response.
	DefaultMaxResponseBytes = graphql.DefaultMaxResponseBytes
	// DefaultStallTimeout bounds how long a client may take none of a
	// large answer (see Config.StallTimeout).
	DefaultStallTimeout = stall.DefaultTimeout
	// MaxErrors is the most request errors one response lists.
	MaxErrors = graphql.DefaultMaxErrors
)

// Config configures a [Handler]. Its zero value enforces every default:
// limits as in [limits.Config], introspection off, messages masked, a cache
// of DefaultCacheSize documents, logging through the request's reqlog logger
// or slog.Default(). A schema with mutations needs an Auth.
type Config struct {
	// Limits bounds each document: length (also the request body), tokens,
	// nesting, depth and field nodes. The zero value holds the defaults
	// (20000 bytes, 20000 tokens, 64 levels, depth 10, 500 nodes).
	Limits limits.Config

	// Introspection allows __schema and __type. When off (the default),
	// they are refused with a 400 while __typename keeps working, and
	// validation messages carry no "Did you mean …" suggestions.
	Introspection bool

	// Presenter turns every error into what the client sees and logs
	// what it may not (see apierror.Presenter); give the REST handlers
	// (articles.Config.Presenter) the same value, so that both APIs
	// answer and log an error alike. Its Debug shows the real message of
	// errors otherwise masked as "Internal server error." (never in
	// production). Its Logger also receives every refused credential,
	// logged with the request's context and the request id that reqlog
	// gave the request; nil means the logger of the request's
	// reqlog.Handler, else slog.Default(). The handler writes no access lines:
	// mount reqlog.Handler around it (or around the whole router). Its
	// Hooks map domain errors to coded ones and report masked errors; the
	// Tracer is given the errors of the fields as Hooks.Map makes them,
	// so that it records the code the client sees.
	Presenter apierror.Presenter

	// CacheSize is the number of validated documents kept, keyed by query
	// text; 0 means DefaultCacheSize and a negative value disables the
	// cache. A document, valid or refused, is cached from its second
	// request within the recent window, not its first, so a one-time text
	// (a query with inlined values, say) evicts nothing and costs nothing
	// after its answer. Recent texts are remembered by a 64-bit hash in a
	// fixed table of at least 4 × CacheSize slots (at most 65,536), each
	// until another text takes its slot: the window is some 4 × CacheSize
	// distinct texts on average.
	//
	// CacheBytes bounds the memory the cached documents are estimated to
	// take: the query text, plus about 160 bytes per token and per node
	// for the parsed document and its execution plans, which take some
	// fifty times the text (0 means DefaultCacheBytes; a negative value
	// means no bound but CacheSize). A typical 1 KB query weighs some
	// 40 KB; a 20 KB document of 500 aliased fields, about 1 MB.
	CacheSize  int
	CacheBytes int

	// Auth authenticates requests for the mutation gate: credentials that
	// are present but invalid are answered with 401 UNAUTHENTICATED
	// whatever the operation, and a mutation without a user with 401
	// before any resolver runs, unless it selects only public fields
	// (graphql.Field.Public). When Auth is also a [Rechecker], the gate
	// checks a mutation's credentials again right before its resolvers
	// run. *auth.Verifier implements both. nil is allowed only for a
	// schema without mutations: [New] refuses a configuration under which
	// every mutation would be refused.
	Auth Authenticator

	// Root is the value the root fields are resolved against (their
	// resolvers' parent); nil is fine.
	Root any

	// MaxResponseBytes bounds the data of one response: execution stops
	// past it, and the client gets data null with one error, code
	// RESPONSE_TOO_LARGE (status 200, as for any execution error; its
	// cause is graphql.ErrResponseTooLarge). The query limits bound a
	// document's fields, not the rows its lists return: a 5 KB query of
	// aliases over a list of 50 posts once answered 946 MiB. 0 means
	// DefaultMaxResponseBytes (16 MiB); a negative value means no limit.
	MaxResponseBytes int

	// ResponseBudget bounds the response data that all executions hold at
	// once, from the start of an execution until its answer is written,
	// so that many large answers at a time cannot take the process's
	// memory. A quarter of it is kept for first shares: every execution
	// takes FirstShare bytes of that quarter once the cost limit has
	// passed it, before the mutation gate and any resolver, so that small
	// answers never wait behind large ones, however many are held. Data that outgrows its first share pauses the execution until
	// the other three quarters lend it MaxResponseBytes, and goes on: a
	// query waits for that share (its first share given back once it
	// comes); a mutation, whose writes may be done and must be neither
	// held up nor refused, takes what it needs at once, past the budget
	// if need be, and later answers wait until it is given back. Each
	// resolver runs once either way. Once the answer is built its share
	// shrinks to the buffers the answer holds, and is given back once it
	// is written.
	//
	// One client (the host of r.RemoteAddr; an IPv6 address counts as
	// its /64) holds at most an eighth of the first shares' quarter, and
	// one share of MaxResponseBytes at a time: its further requests wait
	// for its own, and others pass them. A client's mutation waits for
	// its first share, besides, while the client holds MaxResponseBytes
	// or more of the other three quarters (a mutation's overdraft): so a
	// client overdraws at most what the mutations it has under way at
	// once hold past that. Requests whose RemoteAddr cannot be read (a
	// Unix socket's listener) have no part of their own: only the budget
	// bounds them. Behind a reverse proxy every request comes from the
	// proxy's address, so the service's proxy middleware (chi's
	// middleware.RealIP, gorilla's handlers.ProxyHeaders) must rewrite
	// RemoteAddr before the handler, or every client counts as one.
	//
	// A request that gets no share, or no growth, within
	// ResponseBudgetWait is answered 503 SERVICE_UNAVAILABLE with
	// Retry-After and no data; one whose Timeout passes first gets the
	// timeout's answer (data null, one TIMEOUT error). 0 means
	// DefaultResponseBudget (64 MiB: 16 MiB of first shares, and room for
	// three answers of the default MaxResponseBytes); a negative value
	// turns the budget off. [New] refuses a budget without a
	// MaxResponseBytes, one whose quarter cannot hold a FirstShare, and
	// one whose other three quarters cannot hold MaxResponseBytes.
	ResponseBudget int
	// ResponseBudgetWait bounds how long a request waits for its share
	// of the budget and for its growth, both waits together; 0 means
	// DefaultResponseBudgetWait (10 s).
	ResponseBudgetWait time.Duration
	// FirstShare is the share of the budget every execution starts with,
	// at most MaxResponseBytes; 0 means DefaultFirstShare (256 KiB),
	// which holds almost every answer.
	FirstShare int

	// StallTimeout cuts off a client that stops reading a large answer:
	// an answer of 64 KiB or more is written 64 KiB at a time, and when
	// the client takes none of a part within StallTimeout, the
	// connection's write deadline is brought forward to now, which ends
	// the write and the connection and gives the answer's share of the
	// budget back. Only the writer's deadline is used
	// (http.ResponseController): the server's WriteTimeout is never
	// lengthened, and a middleware's writer without Unwrap is not
	// watched. 0 means DefaultStallTimeout (5 s, a rate of at least
	// 13 KB/s); a negative value turns the watch off, leaving the
	// server's WriteTimeout as the only bound. An answer not taken, cut
	// off or abandoned by the client, is logged once at info.
	StallTimeout time.Duration

	// AllowIntrospection, when set, decides for each request whether
	// __schema and __type are allowed, from the context the resolvers
	// would get (authenticated, when Auth is set): introspection for
	// staff only, say. Introspection is then ignored. A refused request
	// gets the same 400 as with Introspection off.
	AllowIntrospection func(ctx context.Context) bool

	// Timeout bounds the execution of an operation; 0 (the default)
	// and a negative value mean no bound. Past it, the resolvers not yet called are not
	// called, the fields not yet resolved are null, and the answer has
	// one error with extensions.code TIMEOUT (status 200, as for any
	// field error; data is null only when a non-null field could not be
	// resolved in time). Resolvers get the deadline in their context, so
	// that a database call under way is cancelled; a resolver that ignores
	// its context runs to its end, and only then is the execution cut
	// short. The root fields of a
	// mutation are never abandoned halfway: each runs in turn with the
	// request's own context, whatever the time, and only the fields below
	// them are bound by the deadline.
	Timeout time.Duration

	// Tracer observes every request: its phases, the fields that run a
	// resolver, and how it ended (see graphql.Tracer). nil, the default,
	// costs nothing. Package otelgraphql provides an OpenTelemetry one.
	Tracer graphql.Tracer
	// TraceDefaultFields has the Tracer see the fields without a resolver
	// too (read from their parent value). Off by default: such fields
	// measure nothing and would flood a trace.
	TraceDefaultFields bool
}

// Authenticator authenticates a GraphQL request: one value does both
// halves of the mutation gate, so it cannot be half-configured.
// *auth.Verifier implements it.
type Authenticator interface {
	// AuthenticateContext checks the credentials of r and returns the
	// context to execute with: r.Context() when there are none, a context
	// carrying the user when they are valid, or an error when they are
	// present but invalid.
	AuthenticateContext(r *http.Request) (context.Context, error)
	// Subject reports the user a context returned by AuthenticateContext
	// carries, as the service identifies it (a decimal id, a UUID, a
	// token's "sub"), and whether there is one. The gate reads only
	// whether there is one; resolvers read the identity from the context
	// themselves (auth.Subject for a Verifier's contexts).
	Subject(ctx context.Context) (string, bool)
}

// Rechecker is an [Authenticator] that can check again whether the
// credentials a context carries still hold. Credentials are checked when
// the request's headers arrive; the body follows as slowly as the client
// sends it, and the request may then wait for its share of the response
// budget: a revocation (a logout) that lands meanwhile must not let a
// mutation write on behalf of the user who logged out. So the mutation
// gate, which runs after the body is read, the share is lent and the
// variables are coerced, calls Recheck before any resolver; queries are
// not checked again (they write nothing). *auth.Verifier implements it
// (auth.Verifier.Recheck: one lookup in its token store); a wrapper of
// the Verifier that caches its outcome must pass Recheck through, as a
// cached outcome cannot see a revocation.
type Rechecker interface {
	// Recheck returns nil when the credentials that ctx (a context
	// returned by AuthenticateContext) carries still hold, or there are
	// none to check; an error whose StatusCode method returns 503 when
	// they could not be checked (answered 503 SERVICE_UNAVAILABLE, as at
	// the door); any other error when they no longer hold (401
	// UNAUTHENTICATED).
	Recheck(ctx context.Context) error
}

// ConfigFromEnv fills a Config from environment variables, read through
// getenv (os.Getenv in a program, a map in a test):
//
//   - GRAPHQL_INTROSPECTION: true/false;
//   - GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_NODES, GRAPHQL_MAX_QUERY_LENGTH,
//     GRAPHQL_MAX_COST: positive integers;
//   - GRAPHQL_TIMEOUT: a positive Go duration ("10s", "1m30s"), or "0"
//     for none;
//   - GRAPHQL_RESPONSE_BUDGET_WAIT, GRAPHQL_STALL_TIMEOUT: positive Go
//     durations (Config.ResponseBudgetWait, Config.StallTimeout).
//
// Unset variables keep the defaults. A value that cannot be parsed is an
// error naming the variable, so that a typo does not silently weaken a
// limit. The other fields are left for the caller to set, the Presenter
// among them: whether a program shows masked messages (a debug mode) is
// the program's setting, not the endpoint's.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var cfg Config
	var errs []string
	boolVar := func(name string) (value, set bool) {
		raw := strings.TrimSpace(getenv(name))
		if raw == "" {
			return false, false
		}
		b, err := strconv.ParseBool(raw)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s=%q is not a boolean", name, raw))
			return false, false
		}
		return b, true
	}
	intVar := func(name string) int {
		raw := strings.TrimSpace(getenv(name))
		if raw == "" {
			return 0
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Sprintf("%s=%q is not a positive integer", name, raw))
			return 0
		}
		return n
	}
	cfg.Introspection, _ = boolVar("GRAPHQL_INTROSPECTION")
	cfg.Limits.MaxDepth = intVar("GRAPHQL_MAX_DEPTH")
	cfg.Limits.MaxNodes = intVar("GRAPHQL_MAX_NODES")
	cfg.Limits.MaxLength = intVar("GRAPHQL_MAX_QUERY_LENGTH")
	cfg.Limits.MaxCost = intVar("GRAPHQL_MAX_COST")
	// durationVar reads a positive duration, or 0 too when zeroIsNone.
	durationVar := func(name string, zeroIsNone bool) time.Duration {
		raw := strings.TrimSpace(getenv(name))
		if raw == "" {
			return 0
		}
		d, err := time.ParseDuration(raw)
		switch {
		case err == nil && (d > 0 || d == 0 && zeroIsNone):
			return d
		case zeroIsNone:
			errs = append(errs, fmt.Sprintf("%s=%q is not a duration such as 10s (0 for none)", name, raw))
		default:
			errs = append(errs, fmt.Sprintf("%s=%q is not a positive duration such as 10s", name, raw))
		}
		return 0
	}
	cfg.Timeout = durationVar("GRAPHQL_TIMEOUT", true)
	cfg.ResponseBudgetWait = durationVar("GRAPHQL_RESPONSE_BUDGET_WAIT", false)
	cfg.StallTimeout = durationVar("GRAPHQL_STALL_TIMEOUT", false)
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("graphqlhttp: %s", strings.Join(errs, "; "))
	}
	return cfg, nil
}
