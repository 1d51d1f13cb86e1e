package main

import (
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
		s, err := loadSettings(func(name string) string { return tc.env[name] })
		switch {
		case tc.wantError != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%v: error %v, want one containing %q", tc.env, err, tc.wantError)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.env, err)
		case s.graphql.Timeout != tc.timeout || s.graphql.Limits.MaxCost != tc.maxCost:
			t.Errorf("%v: timeout %v, max cost %d; want %v, %d", tc.env, s.graphql.Timeout, s.graphql.Limits.MaxCost, tc.timeout, tc.maxCost)
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
