// Command server is the whole specified service in one binary: the GraphQL
// endpoint with the sample posts schema, the articles REST API, login,
// refresh and logout, and a health check, on a stock http.ServeMux, over
// SQLite (the default) or PostgreSQL.
//
// Usage:
//
//	server [serve]                       run the service (the default)
//	server migrate                       create or update the tables
//	server users add --name N --email E --password P
//	                                     add a user and print its id
//	server users delete --id N           delete a user with their articles and posts
//	server users logout --id N           log a user out everywhere
//	server token --user ID [--ttl D]     print an access token for a user
//	server schema                        print the GraphQL schema (SDL)
//
// Settings come from the environment: ADDR (:8080), DATABASE_URL
// (sqlite:data/app.db, or a postgres:// URL), JWT_SECRET (when unset, a
// random secret generated once and shared: a file beside the SQLite file, or
// a row of the PostgreSQL database), JWT_SECRET_PREVIOUS (earlier secrets,
// comma-separated, that only verify), JWT_ISSUER and JWT_AUDIENCE (unset:
// no iss and aud), JWT_TTL (60m), JWT_REFRESH_TTL (336h), JWT_REFRESH_IDLE_TTL
// (168h), JWT_REFRESH_REUSE_GRACE (10s; 0s for none), TRUSTED_PROXIES (the
// reverse proxies whose X-Forwarded-For the login throttle believes; unset:
// none), BCRYPT_ROUNDS (10), APP_URL (the base of links and, when https,
// what makes the refresh cookie Secure; when unset, the request's Host),
// APP_DEBUG, GRAPHQL_INTROSPECTION, GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_NODES,
// GRAPHQL_MAX_QUERY_LENGTH, HTTP_READ_TIMEOUT (15s), HTTP_WRITE_TIMEOUT
// (30s), HTTP_IDLE_TIMEOUT (120s), SHUTDOWN_TIMEOUT (30s), MEMORY_LIMIT
// (512MiB, the runtime's soft limit; GOMEMLIMIT wins when set) and
// MEMORY_IDLE_RELEASE (30s: memory is given back to the system after that
// long without a request).
//
// Tracing with OpenTelemetry is off unless asked for: OTEL_TRACES_EXPORTER
// console writes every span as a line of JSON to standard output (the logs
// are on standard error), otlp (the default when OTEL_EXPORTER_OTLP_ENDPOINT
// or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set) sends them to a collector
// over OTLP/HTTP, with the standard OTEL_EXPORTER_OTLP_* variables, and none
// turns tracing off. OTEL_SERVICE_NAME names the service (gqlkit-example).
// Every request is then an HTTP server span ("POST /api/graphql") that
// continues an incoming traceparent header, and every GraphQL request an
// operation span below it, with its phases and resolvers (see package
// otelgraphql).
//
// Metrics (package otelgraphql's: the duration of GraphQL requests and the
// lookups of the document cache) are exported over OTLP/HTTP when
// OTEL_METRICS_EXPORTER=otlp or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is set,
// every OTEL_METRIC_EXPORT_INTERVAL (60 s) and when the server stops.
//
// GET /healthz answers while the database does; GET /readyz is the
// readiness check, 503 while a bounded ping of the database fails (on
// SQLite: while its file is gone). Where introspection is on, GET
// /api/schema.graphql serves the schema as "server schema" prints it.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/auth"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

const usage = `usage:
  server [serve]                        run the service (the default)
  server migrate                        create or update the tables
  server users add --name N --email E --password P
  server users delete --id N
  server users logout --id N
  server token --user ID [--ttl D]
  server schema                         print the GraphQL schema (SDL)
`

// errUsage marks a command line that cannot be understood.
var errUsage = errors.New("usage")

// run executes one command and returns the process exit status: 0 on
// success, 1 on failure, 2 on a usage error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	logger := zerolog.New(stderr).With().Timestamp().Logger()
	err := dispatch(ctx, args, getenv, stdout, &logger)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stderr, usage)
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "%v\n%s", err, usage)
		return 2
	}
	logger.Error().Err(err).Msg("failed")
	return 1
}

// command is a parsed command line: what to do once the database is open.
type command struct {
	name     string // serve, migrate, users add, users delete, users logout, token
	serve    bool   // needs the JWT secret and starts the server
	needsJWT bool
	run      func(ctx context.Context, db *database, s settings, jwt jwtKeys) error
	// offline, when set, is the whole command: it needs no settings and
	// no database (schema).
	offline func() error
}

// parseCommand reads the command line. It touches nothing, so that a
// mistyped command creates no database and no secret file.
func parseCommand(args []string, stdout io.Writer) (command, error) {
	name := "serve"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	switch name {
	case "-h", "--help", "help":
		return command{}, flag.ErrHelp
	case "serve":
		if err := parseFlags(newFlags("serve"), args); err != nil {
			return command{}, err
		}
		return command{name: name, serve: true, needsJWT: true}, nil
	case "migrate":
		if err := parseFlags(newFlags("migrate"), args); err != nil {
			return command{}, err
		}
		return command{name: name, run: func(ctx context.Context, db *database, _ settings, _ jwtKeys) error {
			return db.migrate(ctx)
		}}, nil
	case "users":
		if len(args) > 0 && args[0] == "add" {
			return parseAddUser(args[1:], stdout)
		}
		if len(args) > 0 && args[0] == "delete" {
			return parseDeleteUser(args[1:], stdout)
		}
		if len(args) > 0 && args[0] == "logout" {
			return parseLogoutUser(args[1:], stdout)
		}
		return command{}, fmt.Errorf("%w: users needs add, delete or logout", errUsage)
	case "token":
		return parseToken(args, stdout)
	case "schema":
		return parseSchema(args, stdout) // schema.go
	}
	return command{}, fmt.Errorf("%w: unknown command %q", errUsage, name)
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, logger *zerolog.Logger) error {
	cmd, err := parseCommand(args, stdout)
	if err != nil {
		return err
	}
	if cmd.offline != nil {
		return cmd.offline()
	}
	s, err := loadSettings(getenv)
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, s.databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()

	var jwt jwtKeys
	if cmd.needsJWT {
		// The tables first: on PostgreSQL the generated secret lives in
		// one of them.
		if err := db.migrate(ctx); err != nil {
			return err
		}
		secret, err := jwtSecret(ctx, s, db, logger, cmd.serve)
		if err != nil {
			return err
		}
		if jwt, err = jwtConfig(secret, s, db); err != nil {
			return err
		}
	}
	if !cmd.serve {
		if err := cmd.run(ctx, db, s, jwt); err != nil {
			return err
		}
		if cmd.name == "migrate" {
			logger.Info().Str("database", db.kind).Str("where", db.where).Msg("migrated")
		}
		return nil
	}

	verifier, err := auth.NewVerifier(auth.HMAC(jwt.secret, jwt.previous...), jwt.cfg)
	if err != nil {
		return err
	}
	issuer, err := auth.NewIssuer(jwt.secret, jwt.cfg)
	if err != nil {
		return err
	}
	tel, err := newTelemetry(ctx, s.telemetry, stdout)
	if err != nil {
		return err
	}
	// After the server has stopped: the spans of its last requests are
	// flushed.
	defer tel.shutdown(logger)
	handler, err := routes(db, s, verifier, issuer, logger, tel)
	if err != nil {
		return err
	}
	logger.Info().Str("database", db.kind).Str("where", db.where).Msgf("database: %s %s", db.kind, db.where)
	logKeys(logger, jwt)
	logProxies(logger, s.proxies)
	logger.Info().Bool("introspection", s.graphql.Introspection).Msgf("introspection: %s", onOff(s.graphql.Introspection))
	logger.Info().Str("service", s.telemetry.serviceName).Bool("tracing", s.telemetry.on()).Msgf("tracing: %s", s.telemetry.describe())
	logger.Info().Bool("metrics", s.telemetry.metrics.otlp).Msgf("metrics: %s", s.telemetry.metrics.describe())
	return serve(ctx, s, handler, logger)
}

// jwtKeys are the keys and the configuration of the verifier and the
// issuer.
type jwtKeys struct {
	secret   []byte   // signs and verifies
	previous [][]byte // only verify
	cfg      auth.Config
}

// jwtConfig is the configuration of the verifier and the issuer: the
// current secret signs and verifies, JWT_SECRET_PREVIOUS only verify, and
// the database keeps the revoked tokens.
func jwtConfig(secret []byte, s settings, db *database) (jwtKeys, error) {
	for i, key := range s.jwtPrevious {
		if bytes.Equal(key, secret) {
			return jwtKeys{}, fmt.Errorf("JWT_SECRET_PREVIOUS: secret %d of the list is the current JWT secret; list only the secrets it replaced", i+1)
		}
	}
	return jwtKeys{secret: secret, previous: s.jwtPrevious, cfg: auth.Config{
		Issuer:   s.jwtIssuer,
		Audience: s.jwtAudience,
		TTL:      s.jwtTTL,
		Tokens:   db.store.Tokens(),
	}}, nil
}

// logKeys logs which keys the server signs and verifies with, by their key
// ids (the kid of the tokens' header), never the keys.
func logKeys(logger *zerolog.Logger, jwt jwtKeys) {
	cfg := jwt.cfg
	kid := auth.KeyID(jwt.secret)
	previous := make([]string, len(jwt.previous))
	for i, key := range jwt.previous {
		previous[i] = auth.KeyID(key)
	}
	also := "no previous keys"
	if len(previous) > 0 {
		also = "previous keys, verifying only: " + strings.Join(previous, ", ")
	}
	ev := logger.Info().Str("kid", kid).Strs("previous_kids", previous)
	if cfg.Issuer != "" {
		ev = ev.Str("issuer", cfg.Issuer)
	}
	if cfg.Audience != "" {
		ev = ev.Str("audience", cfg.Audience)
	}
	ev.Msgf("signing key: kid %s; %s", kid, also)
}

// logProxies logs whose X-Forwarded-For the login throttle believes.
func logProxies(logger *zerolog.Logger, proxies []netip.Prefix) {
	if len(proxies) == 0 {
		logger.Info().Msg("trusted proxies: none (X-Forwarded-For is ignored)")
		return
	}
	names := make([]string, len(proxies))
	for i, p := range proxies {
		names[i] = p.String()
	}
	logger.Info().Strs("trusted_proxies", names).Msgf("trusted proxies: %s", strings.Join(names, ", "))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// jwtSecret returns JWT_SECRET or, when it is unset, the secret the server
// generated once: in the secret file beside a SQLite database, in the table
// server_secrets of a PostgreSQL one, where every process finds the same.
// serve logs where it is.
func jwtSecret(ctx context.Context, s settings, db *database, logger *zerolog.Logger, serve bool) ([]byte, error) {
	if s.jwtSecret != nil {
		if len(s.jwtSecret) < auth.MinSecretBytes {
			return nil, fmt.Errorf("JWT_SECRET must be at least %d bytes", auth.MinSecretBytes)
		}
		return s.jwtSecret, nil
	}
	where := "the table server_secrets of the database"
	load := func() ([]byte, error) { return db.sharedSecret(ctx) }
	if db.kind == "sqlite" {
		where = secretFile(db)
		load = func() ([]byte, error) { return loadSecret(where) }
	}
	secret, err := load()
	if err != nil {
		return nil, err
	}
	if serve {
		logger.Warn().Str("secret", where).
			Msgf("JWT_SECRET is unset: tokens are signed with the secret generated in %s; set JWT_SECRET in production", where)
	}
	return secret, nil
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: %s: unexpected %q", errUsage, fs.Name(), fs.Arg(0))
	}
	return nil
}

// normalEmail is the form e-mail addresses are stored and looked up in:
// trimmed and lower-cased, so that logging in does not depend on case.
func normalEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

func parseAddUser(args []string, stdout io.Writer) (command, error) {
	fs := newFlags("users add")
	name := fs.String("name", "", "the user's name")
	email := fs.String("email", "", "the user's e-mail address")
	password := fs.String("password", "", "the user's password")
	if err := parseFlags(fs, args); err != nil {
		return command{}, err
	}
	n, e := strings.TrimSpace(*name), normalEmail(*email)
	if n == "" || e == "" || *password == "" {
		return command{}, fmt.Errorf("%w: users add needs --name, --email and --password", errUsage)
	}
	if len(*password) > auth.MaxPasswordBytes {
		return command{}, fmt.Errorf("%w: --password is %d bytes long; bcrypt uses at most %d, so a longer one is refused",
			errUsage, len(*password), auth.MaxPasswordBytes)
	}
	return command{name: "users add", run: func(ctx context.Context, db *database, s settings, _ jwtKeys) error {
		if err := db.migrate(ctx); err != nil {
			return err
		}
		hash, err := auth.HashPassword(*password, s.bcryptCost)
		if err != nil {
			return err
		}
		id, err := db.store.CreateUser(ctx, n, e, hash)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, id)
		return nil
	}}, nil
}

func parseDeleteUser(args []string, stdout io.Writer) (command, error) {
	fs := newFlags("users delete")
	id := fs.Int64("id", 0, "the user's id")
	if err := parseFlags(fs, args); err != nil {
		return command{}, err
	}
	if *id <= 0 {
		return command{}, fmt.Errorf("%w: users delete needs --id, a positive integer", errUsage)
	}
	return command{name: "users delete", run: func(ctx context.Context, db *database, _ settings, _ jwtKeys) error {
		if err := db.store.DeleteUser(ctx, *id); err != nil {
			return fmt.Errorf("deleting user %d: %w", *id, err)
		}
		fmt.Fprintf(stdout, "deleted user %d\n", *id)
		return nil
	}}, nil
}

// parseLogoutUser reads "users logout --id N": log user N out everywhere.
// One write, the user's cutoff: every session that started until now (to
// the second) is over, its refresh tokens and access tokens refused from
// the next request on, even those a refresh in flight issues, and so are
// their access tokens without a session issued until now; they may log in
// again from the next second on.
func parseLogoutUser(args []string, stdout io.Writer) (command, error) {
	fs := newFlags("users logout")
	id := fs.Int64("id", 0, "the user's id")
	if err := parseFlags(fs, args); err != nil {
		return command{}, err
	}
	if *id <= 0 {
		return command{}, fmt.Errorf("%w: users logout needs --id, a positive integer", errUsage)
	}
	return command{name: "users logout", run: func(ctx context.Context, db *database, _ settings, _ jwtKeys) error {
		// The revocation tables come with the migrations: a database the
		// server has not yet updated gets them now.
		if err := db.migrate(ctx); err != nil {
			return err
		}
		switch ok, err := db.posts.userExists(ctx, *id); {
		case err != nil:
			return fmt.Errorf("users logout: looking up user %d: %w", *id, err)
		case !ok:
			return fmt.Errorf("users logout: there is no user %d", *id)
		}
		if err := db.store.Tokens().RevokeUser(ctx, *id, time.Now()); err != nil {
			return fmt.Errorf("users logout: %w", err)
		}
		fmt.Fprintf(stdout, "logged out user %d everywhere\n", *id)
		return nil
	}}, nil
}

func parseToken(args []string, stdout io.Writer) (command, error) {
	fs := newFlags("token")
	user := fs.Int64("user", 0, "the user id the token is for")
	ttl := fs.Duration("ttl", 0, "the token's lifetime (default JWT_TTL)")
	if err := parseFlags(fs, args); err != nil {
		return command{}, err
	}
	if *user <= 0 {
		return command{}, fmt.Errorf("%w: token needs --user, a positive integer", errUsage)
	}
	if *ttl < 0 || (*ttl > 0 && *ttl < time.Second) {
		return command{}, fmt.Errorf("%w: token: --ttl must be at least 1s", errUsage)
	}
	return command{name: "token", needsJWT: true, run: func(ctx context.Context, db *database, _ settings, jwt jwtKeys) error {
		// A token for a user who does not exist would only be refused
		// later, at its first use: refuse it now.
		switch ok, err := db.posts.userExists(ctx, *user); {
		case err != nil:
			return fmt.Errorf("looking up user %d: %w", *user, err)
		case !ok:
			return fmt.Errorf("token: there is no user %d (see users add)", *user)
		}
		cfg := jwt.cfg
		if *ttl > 0 {
			cfg.TTL = *ttl
		}
		issuer, err := auth.NewIssuer(jwt.secret, cfg)
		if err != nil {
			return err
		}
		token, err := issuer.Issue(*user)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, token)
		return nil
	}}, nil
}
