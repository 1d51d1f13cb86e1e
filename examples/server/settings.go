package main

import (
	"bytes"
	"fmt"
	"math"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// settings is the whole configuration of the server, read from the
// environment. Every setting has a default, so the server runs with none.
type settings struct {
	addr        string        // ADDR
	databaseURL string        // DATABASE_URL
	jwtSecret   []byte        // JWT_SECRET; nil means the secret file
	jwtTTL      time.Duration // JWT_TTL
	appURL      string        // APP_URL, without a trailing slash; "" means the request's Host
	memoryLimit int64         // MEMORY_LIMIT in bytes; 0: none; -1: leave GOMEMLIMIT to the runtime
	idleRelease time.Duration // MEMORY_IDLE_RELEASE
	debug       bool          // APP_DEBUG: masked messages shown, introspection on by default
	graphql     graphqlhttp.Config
	telemetry   telemetrySettings // OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME

	jwtPrevious [][]byte        // JWT_SECRET_PREVIOUS: keys that only verify
	jwtIssuer   string          // JWT_ISSUER; "" means no iss claim
	jwtAudience string          // JWT_AUDIENCE; "" means no aud claim
	refresh     refreshSettings // JWT_REFRESH_*
	proxies     []netip.Prefix  // TRUSTED_PROXIES; nil: X-Forwarded-For is ignored
	bcryptCost  int             // BCRYPT_ROUNDS

	readTimeout     time.Duration // HTTP_READ_TIMEOUT
	writeTimeout    time.Duration // HTTP_WRITE_TIMEOUT
	idleTimeout     time.Duration // HTTP_IDLE_TIMEOUT
	shutdownTimeout time.Duration // SHUTDOWN_TIMEOUT
}

// refreshSettings are the lifetimes of refresh tokens.
type refreshSettings struct {
	ttl   time.Duration // JWT_REFRESH_TTL: absolute, from the login
	idle  time.Duration // JWT_REFRESH_IDLE_TTL
	grace time.Duration // JWT_REFRESH_REUSE_GRACE; 0: off
}

const defaultDatabaseURL = "sqlite:data/app.db"

// defaultBcryptRounds is the bcrypt cost when BCRYPT_ROUNDS is unset
// (Laravel's default too).
const defaultBcryptRounds = 10

// defaultMemoryLimit is the soft memory limit of the Go runtime when
// neither MEMORY_LIMIT nor GOMEMLIMIT is set: the garbage collector works
// harder as the heap nears it (a soft limit: the server does not fail
// above it).
const defaultMemoryLimit = 512 << 20

// defaultGraphQLTimeout bounds a GraphQL execution when GRAPHQL_TIMEOUT is
// not set (the kit's default is no bound).
const defaultGraphQLTimeout = 20 * time.Second

// loadSettings reads the settings through getenv. A value that cannot be
// parsed is an error naming the variable: a typo must not silently fall back
// to a default.
func loadSettings(getenv func(string) string) (settings, error) {
	s := settings{
		addr:            ":8080",
		databaseURL:     defaultDatabaseURL,
		jwtTTL:          60 * time.Minute,
		bcryptCost:      defaultBcryptRounds,
		readTimeout:     15 * time.Second,
		writeTimeout:    30 * time.Second,
		idleTimeout:     120 * time.Second,
		shutdownTimeout: 30 * time.Second,
		memoryLimit:     defaultMemoryLimit,
		idleRelease:     30 * time.Second,
	}
	s.refresh = refreshSettings{
		ttl:   auth.DefaultRefreshTTL,
		idle:  auth.DefaultRefreshIdleTTL,
		grace: auth.DefaultReuseGrace,
	}
	var problems []string
	str := func(name string, into *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*into = v
		}
	}
	duration := func(name string, into *time.Duration) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			problems = append(problems, fmt.Sprintf("%s=%q is not a positive duration such as 30s or 60m", name, v))
			return
		}
		*into = d
	}
	str("ADDR", &s.addr)
	if _, port, err := net.SplitHostPort(s.addr); err != nil || port == "" {
		problems = append(problems, fmt.Sprintf("ADDR=%q is not a host:port address such as :8080 or 127.0.0.1:8080", s.addr))
	}
	str("DATABASE_URL", &s.databaseURL)
	if v := getenv("JWT_SECRET"); v != "" {
		s.jwtSecret = []byte(v)
	}
	duration("JWT_TTL", &s.jwtTTL)
	if s.jwtTTL < time.Second {
		problems = append(problems, fmt.Sprintf("JWT_TTL=%q is shorter than the least token lifetime, 1s", getenv("JWT_TTL")))
	}
	s.jwtPrevious, problems = parsePreviousSecrets(getenv("JWT_SECRET_PREVIOUS"), problems)
	str("JWT_ISSUER", &s.jwtIssuer)
	str("JWT_AUDIENCE", &s.jwtAudience)
	atLeastSecond := func(name string, into *time.Duration) {
		duration(name, into)
		if *into < time.Second {
			problems = append(problems, fmt.Sprintf("%s=%q is shorter than 1s", name, getenv(name)))
		}
	}
	atLeastSecond("JWT_REFRESH_TTL", &s.refresh.ttl)
	atLeastSecond("JWT_REFRESH_IDLE_TTL", &s.refresh.idle)
	if v := strings.TrimSpace(getenv("JWT_REFRESH_REUSE_GRACE")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			problems = append(problems, fmt.Sprintf("JWT_REFRESH_REUSE_GRACE=%q is not a duration such as 10s (0s turns the grace off)", v))
		}
		s.refresh.grace = d
	}
	if v := strings.TrimSpace(getenv("TRUSTED_PROXIES")); v != "" {
		p, err := parsePrefixes(v)
		if err != nil {
			problems = append(problems, fmt.Sprintf("TRUSTED_PROXIES=%q: %v", v, err))
		}
		s.proxies = p
	}
	if v := strings.TrimSpace(getenv("BCRYPT_ROUNDS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < minBcryptRounds || n > maxBcryptRounds {
			problems = append(problems, fmt.Sprintf("BCRYPT_ROUNDS=%q is not a bcrypt cost, an integer from %d to %d", v, minBcryptRounds, maxBcryptRounds))
		}
		s.bcryptCost = n
	}
	if v := strings.TrimSpace(getenv("APP_URL")); v != "" {
		u, err := parseAppURL(v)
		if err != nil {
			problems = append(problems, err.Error())
		}
		s.appURL = u
	}
	if getenv("GOMEMLIMIT") != "" {
		s.memoryLimit = -1 // the runtime has read it
	}
	if v := strings.TrimSpace(getenv("MEMORY_LIMIT")); v != "" {
		n, err := parseBytes(v)
		if err != nil {
			problems = append(problems, fmt.Sprintf("MEMORY_LIMIT=%q is not a size such as 512MiB or 1GiB (0 for none)", v))
		}
		s.memoryLimit = n
	}
	duration("MEMORY_IDLE_RELEASE", &s.idleRelease)
	duration("HTTP_READ_TIMEOUT", &s.readTimeout)
	duration("HTTP_WRITE_TIMEOUT", &s.writeTimeout)
	duration("HTTP_IDLE_TIMEOUT", &s.idleTimeout)
	duration("SHUTDOWN_TIMEOUT", &s.shutdownTimeout)

	if v := strings.TrimSpace(getenv("APP_DEBUG")); v != "" {
		debug, err := strconv.ParseBool(v)
		if err != nil {
			problems = append(problems, fmt.Sprintf("APP_DEBUG=%q is not a boolean", v))
		}
		s.debug = debug
	}
	gql, err := graphqlhttp.ConfigFromEnv(getenv)
	if err != nil {
		problems = append(problems, strings.TrimPrefix(err.Error(), "graphqlhttp: "))
	}
	if strings.TrimSpace(getenv("GRAPHQL_INTROSPECTION")) == "" {
		gql.Introspection = s.debug // a debug run may look at the schema
	}
	if strings.TrimSpace(getenv("GRAPHQL_TIMEOUT")) == "" {
		// Below HTTP_WRITE_TIMEOUT's default, so that the answer with its
		// TIMEOUT error still has time to be written.
		gql.Timeout = defaultGraphQLTimeout
	}
	s.graphql = gql
	tel, telProblems := parseTelemetry(getenv)
	problems = append(problems, telProblems...)
	s.telemetry = tel
	if len(problems) > 0 {
		return settings{}, fmt.Errorf("invalid settings: %s", strings.Join(problems, "; "))
	}
	return s, nil
}

// The bcrypt costs BCRYPT_ROUNDS may name (bcrypt's MinCost and MaxCost).
// Each step doubles the time of a hash: 10 takes tens of milliseconds, 4
// (for tests) well under one.
const (
	minBcryptRounds = 4
	maxBcryptRounds = 31
)

// parsePreviousSecrets reads JWT_SECRET_PREVIOUS: secrets separated by
// commas, spaces around each ignored. Each must be at least
// auth.MinSecretBytes long and differ from the others. The problems it
// appends name the entry by its position, never by its value.
func parsePreviousSecrets(v string, problems []string) ([][]byte, []string) {
	if strings.TrimSpace(v) == "" {
		return nil, problems
	}
	var keys [][]byte
	for i, entry := range strings.Split(v, ",") {
		key := []byte(strings.TrimSpace(entry))
		switch {
		case len(key) < auth.MinSecretBytes:
			problems = append(problems, fmt.Sprintf("JWT_SECRET_PREVIOUS: secret %d of the list is %d bytes long; each must be at least %d",
				i+1, len(key), auth.MinSecretBytes))
			continue
		case containsKey(keys, key):
			problems = append(problems, fmt.Sprintf("JWT_SECRET_PREVIOUS: secret %d of the list repeats an earlier one", i+1))
			continue
		}
		keys = append(keys, key)
	}
	return keys, problems
}

func containsKey(keys [][]byte, key []byte) bool {
	for _, k := range keys {
		if bytes.Equal(k, key) {
			return true
		}
	}
	return false
}

// parsePrefixes reads TRUSTED_PROXIES: IP addresses (each a prefix of its
// own, /32 or /128) and CIDR prefixes such as 10.0.0.0/8, separated by
// commas.
func parsePrefixes(v string) ([]netip.Prefix, error) {
	var prefixes []netip.Prefix
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if strings.Contains(entry, "/") {
			p, err := netip.ParsePrefix(entry)
			if err != nil {
				return nil, fmt.Errorf("%q is not a CIDR prefix such as 10.0.0.0/8", entry)
			}
			prefixes = append(prefixes, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(entry)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is not an IP address or a CIDR prefix such as 10.0.0.0/8", entry)
		}
		prefixes = append(prefixes, netip.PrefixFrom(a, a.BitLen()))
	}
	return prefixes, nil
}

// parseAppURL checks APP_URL: an absolute http or https URL with a host and
// nothing after its path, which links and Location headers start with.
func parseAppURL(v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("APP_URL=%q is not an http(s) URL such as https://api.example.com", v)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// parseBytes reads a size: a number of bytes, optionally followed by KiB,
// MiB, GiB (or KB, MB, GB, powers of ten). 0 means none.
func parseBytes(v string) (int64, error) {
	units := []struct {
		suffix string
		factor int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	factor := int64(1)
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			v, factor = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/factor {
		return 0, fmt.Errorf("bad size %q", v)
	}
	return n * factor, nil
}
