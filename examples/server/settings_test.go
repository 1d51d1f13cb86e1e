package main

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSettingsMemoryAndAppURL(t *testing.T) {
	for _, tc := range []struct {
		env       []string
		limit     int64
		appURL    string
		wantError string
	}{
		{limit: defaultMemoryLimit},
		{env: []string{"MEMORY_LIMIT", "300MiB"}, limit: 300 << 20},
		{env: []string{"MEMORY_LIMIT", "1GiB"}, limit: 1 << 30},
		{env: []string{"MEMORY_LIMIT", "2000000"}, limit: 2_000_000},
		{env: []string{"MEMORY_LIMIT", "0"}, limit: 0},
		{env: []string{"GOMEMLIMIT", "1GiB"}, limit: -1},
		{env: []string{"MEMORY_LIMIT", "lots"}, wantError: `MEMORY_LIMIT="lots" is not a size`},
		{env: []string{"MEMORY_LIMIT", "-5MiB"}, wantError: `MEMORY_LIMIT="-5MiB" is not a size`},
		{env: []string{"APP_URL", "https://api.example.com/"}, limit: defaultMemoryLimit, appURL: "https://api.example.com"},
		{env: []string{"APP_URL", "https://example.com/v1"}, limit: defaultMemoryLimit, appURL: "https://example.com/v1"},
		{env: []string{"APP_URL", "api.example.com"}, wantError: `APP_URL="api.example.com" is not an http(s) URL`},
		{env: []string{"APP_URL", "https://example.com/?x=1"}, wantError: `APP_URL="https://example.com/?x=1" is not an http(s) URL`},
		{env: []string{"MEMORY_IDLE_RELEASE", "soon"}, wantError: `MEMORY_IDLE_RELEASE="soon" is not a positive duration`},
	} {
		s, err := loadSettings(envOf(tc.env...))
		switch {
		case tc.wantError != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%q: error %v, want one containing %q", tc.env, err, tc.wantError)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.env, err)
		case s.memoryLimit != tc.limit || s.appURL != tc.appURL:
			t.Errorf("%q: memory limit %d, APP_URL %q; want %d, %q", tc.env, s.memoryLimit, s.appURL, tc.limit, tc.appURL)
		}
	}
}

func TestSettingsGraphQLTimeoutAndCost(t *testing.T) {
	for _, tc := range []struct {
		env       map[string]string
		timeout   time.Duration
		maxCost   int
		wantError string
	}{
		{timeout: defaultGraphQLTimeout},
		{env: map[string]string{"GRAPHQL_TIMEOUT": "5s", "GRAPHQL_MAX_COST": "20000"}, timeout: 5 * time.Second, maxCost: 20000},
		{env: map[string]string{"GRAPHQL_TIMEOUT": "0"}, timeout: 0},
		{env: map[string]string{"GRAPHQL_TIMEOUT": "soon"}, wantError: `GRAPHQL_TIMEOUT="soon"`},
		{env: map[string]string{"GRAPHQL_MAX_COST": "-1"}, wantError: `GRAPHQL_MAX_COST="-1"`},
	} {
		s, ok := settingsFor(t, tc.env, tc.wantError)
		switch {
		case !ok:
		case s.graphql.Timeout != tc.timeout || s.graphql.Limits.MaxCost != tc.maxCost:
			t.Errorf("%v: timeout %v, max cost %d; want %v, %d", tc.env, s.graphql.Timeout, s.graphql.Limits.MaxCost, tc.timeout, tc.maxCost)
		}
	}
}

// TestSettingsDebug: APP_DEBUG is the server's setting: it shows masked
// messages (the presenter's Debug) and turns introspection on unless
// GRAPHQL_INTROSPECTION says otherwise.
func TestSettingsDebug(t *testing.T) {
	for _, tc := range []struct {
		env                  map[string]string
		debug, introspection bool
		wantError            string
	}{
		{},
		{env: map[string]string{"APP_DEBUG": "true"}, debug: true, introspection: true},
		{env: map[string]string{"APP_DEBUG": " TRUE ", "GRAPHQL_INTROSPECTION": "false"}, debug: true},
		{env: map[string]string{"APP_DEBUG": "false", "GRAPHQL_INTROSPECTION": "1"}, introspection: true},
		{env: map[string]string{"APP_DEBUG": "yes"}, wantError: `APP_DEBUG="yes"`},
	} {
		s, ok := settingsFor(t, tc.env, tc.wantError)
		switch {
		case !ok:
		case s.debug != tc.debug || s.graphql.Introspection != tc.introspection:
			t.Errorf("%v: debug %v, introspection %v; want %v, %v", tc.env, s.debug, s.graphql.Introspection, tc.debug, tc.introspection)
		}
	}
}

// envOf is a getenv over name, value pairs.
func envOf(kv ...string) func(string) string {
	return func(name string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == name {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestSettingsSessions(t *testing.T) {
	secretA := strings.Repeat("a", 32)
	secretB := strings.Repeat("b", 40)
	type want struct {
		previous [][]byte
		issuer   string
		audience string
		refresh  refreshSettings
		proxies  string // the prefixes, comma-separated
		cost     int
	}
	defaults := want{
		refresh: refreshSettings{ttl: 336 * time.Hour, idle: 168 * time.Hour, grace: 10 * time.Second},
		cost:    10,
	}
	with := func(change func(*want)) want {
		w := defaults
		change(&w)
		return w
	}
	for _, tc := range []struct {
		env       []string
		want      want
		wantError string
	}{
		{want: defaults},
		{env: []string{"JWT_SECRET_PREVIOUS", secretA}, want: with(func(w *want) { w.previous = [][]byte{[]byte(secretA)} })},
		{env: []string{"JWT_SECRET_PREVIOUS", secretA + " , " + secretB},
			want: with(func(w *want) { w.previous = [][]byte{[]byte(secretA), []byte(secretB)} })},
		{env: []string{"JWT_SECRET_PREVIOUS", secretA + ",too-short-secret"},
			wantError: "JWT_SECRET_PREVIOUS: secret 2 of the list is 16 bytes long; each must be at least 32"},
		{env: []string{"JWT_SECRET_PREVIOUS", secretA + ","},
			wantError: "JWT_SECRET_PREVIOUS: secret 2 of the list is 0 bytes long; each must be at least 32"},
		{env: []string{"JWT_SECRET_PREVIOUS", secretB + "," + secretB},
			wantError: "JWT_SECRET_PREVIOUS: secret 2 of the list repeats an earlier one"},
		{env: []string{"JWT_ISSUER", " https://auth.example.com ", "JWT_AUDIENCE", "api"},
			want: with(func(w *want) { w.issuer, w.audience = "https://auth.example.com", "api" })},
		{env: []string{"JWT_REFRESH_TTL", "720h", "JWT_REFRESH_IDLE_TTL", "24h", "JWT_REFRESH_REUSE_GRACE", "2s"},
			want: with(func(w *want) {
				w.refresh = refreshSettings{ttl: 720 * time.Hour, idle: 24 * time.Hour, grace: 2 * time.Second}
			})},
		{env: []string{"JWT_REFRESH_REUSE_GRACE", "0s"}, want: with(func(w *want) { w.refresh.grace = 0 })},
		{env: []string{"JWT_REFRESH_REUSE_GRACE", "0"}, want: with(func(w *want) { w.refresh.grace = 0 })},
		{env: []string{"JWT_REFRESH_REUSE_GRACE", "-1s"}, wantError: `JWT_REFRESH_REUSE_GRACE="-1s" is not a duration such as 10s (0s turns the grace off)`},
		{env: []string{"JWT_REFRESH_TTL", "forever"}, wantError: `JWT_REFRESH_TTL="forever" is not a positive duration`},
		{env: []string{"JWT_REFRESH_TTL", "0s"}, wantError: `JWT_REFRESH_TTL="0s" is not a positive duration`},
		{env: []string{"JWT_REFRESH_IDLE_TTL", "500ms"}, wantError: `JWT_REFRESH_IDLE_TTL="500ms" is shorter than 1s`},
		{env: []string{"TRUSTED_PROXIES", "127.0.0.1, 10.1.2.3/8,::1, fd00::/8"},
			want: with(func(w *want) { w.proxies = "127.0.0.1/32,10.0.0.0/8,::1/128,fd00::/8" })},
		{env: []string{"TRUSTED_PROXIES", "10.0.0.0/33"}, wantError: `TRUSTED_PROXIES="10.0.0.0/33": "10.0.0.0/33" is not a CIDR prefix such as 10.0.0.0/8`},
		{env: []string{"TRUSTED_PROXIES", "10.0.0.1,proxy.local"}, wantError: `TRUSTED_PROXIES="10.0.0.1,proxy.local": "proxy.local" is not an IP address or a CIDR prefix`},
		{env: []string{"TRUSTED_PROXIES", "10.0.0.1,"}, wantError: `TRUSTED_PROXIES="10.0.0.1,": "" is not an IP address or a CIDR prefix`},
		{env: []string{"BCRYPT_ROUNDS", "4"}, want: with(func(w *want) { w.cost = 4 })},
		{env: []string{"BCRYPT_ROUNDS", "31"}, want: with(func(w *want) { w.cost = 31 })},
		{env: []string{"BCRYPT_ROUNDS", "3"}, wantError: `BCRYPT_ROUNDS="3" is not a bcrypt cost, an integer from 4 to 31`},
		{env: []string{"BCRYPT_ROUNDS", "32"}, wantError: `BCRYPT_ROUNDS="32" is not a bcrypt cost, an integer from 4 to 31`},
		{env: []string{"BCRYPT_ROUNDS", "ten"}, wantError: `BCRYPT_ROUNDS="ten" is not a bcrypt cost, an integer from 4 to 31`},
	} {
		s, err := loadSettings(envOf(tc.env...))
		if tc.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%q: error %v, want one containing %q", tc.env, err, tc.wantError)
			}
			// A secret is never repeated in a message.
			if err != nil && (strings.Contains(err.Error(), secretA) || strings.Contains(err.Error(), secretB) ||
				strings.Contains(err.Error(), "too-short-secret")) {
				t.Errorf("%q: the error shows a secret: %v", tc.env, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.env, err)
			continue
		}
		var proxies []string
		for _, p := range s.proxies {
			proxies = append(proxies, p.String())
		}
		got := want{previous: s.jwtPrevious, issuer: s.jwtIssuer, audience: s.jwtAudience, refresh: s.refresh,
			proxies: strings.Join(proxies, ","), cost: s.bcryptCost}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.env, got, tc.want)
		}
	}
}

// settingsFor loads the settings of env. With wantError set it checks that
// loading fails with an error containing it; otherwise that it succeeds.
// ok says whether s is there to be checked further.
func settingsFor(t *testing.T, env map[string]string, wantError string) (s settings, ok bool) {
	t.Helper()
	s, err := loadSettings(func(name string) string { return env[name] })
	switch {
	case wantError != "":
		if err == nil || !strings.Contains(err.Error(), wantError) {
			t.Errorf("%v: error %v, want one containing %q", env, err, wantError)
		}
		return s, false
	case err != nil:
		t.Errorf("%v: %v", env, err)
		return s, false
	}
	return s, true
}
