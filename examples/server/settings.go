package main

import (
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// settings is the whole configuration of the server, read from the
// environment. Every setting has a default, so the server runs with none.
type settings struct {
	addr        string        // ADDR
	databaseURL string        // DATABASE_URL
	jwtSecret   []byte        // JWT_SECRET; nil means the secret file
	jwtTTL      time.Duration // JWT_TTL
	graphql     graphqlhttp.Config

	readTimeout     time.Duration // HTTP_READ_TIMEOUT
	writeTimeout    time.Duration // HTTP_WRITE_TIMEOUT
	idleTimeout     time.Duration // HTTP_IDLE_TIMEOUT
	shutdownTimeout time.Duration // SHUTDOWN_TIMEOUT
}

const defaultDatabaseURL = "sqlite:data/app.db"

// loadSettings reads the settings through getenv. A value that cannot be
// parsed is an error naming the variable: a typo must not silently fall back
// to a default.
func loadSettings(getenv func(string) string) (settings, error) {
	s := settings{
		addr:            ":8080",
		databaseURL:     defaultDatabaseURL,
		jwtTTL:          60 * time.Minute,
		readTimeout:     15 * time.Second,
		writeTimeout:    30 * time.Second,
		idleTimeout:     120 * time.Second,
		shutdownTimeout: 30 * time.Second,
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
	duration("HTTP_READ_TIMEOUT", &s.readTimeout)
	duration("HTTP_WRITE_TIMEOUT", &s.writeTimeout)
	duration("HTTP_IDLE_TIMEOUT", &s.idleTimeout)
	duration("SHUTDOWN_TIMEOUT", &s.shutdownTimeout)

	gql, err := graphqlhttp.ConfigFromEnv(getenv)
	if err != nil {
		problems = append(problems, strings.TrimPrefix(err.Error(), "graphqlhttp: "))
	}
	s.graphql = gql
	if len(problems) > 0 {
		return settings{}, fmt.Errorf("invalid settings: %s", strings.Join(problems, "; "))
	}
	return s, nil
}
