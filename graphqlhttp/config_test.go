package graphqlhttp_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/limits"
)

// envOf returns a getenv over env that records the names asked for.
func envOf(env map[string]string, asked map[string]bool) func(string) string {
	return func(name string) string {
		asked[name] = true
		return env[name]
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want graphqlhttp.Config
	}{
		{name: "nothing set", env: nil, want: graphqlhttp.Config{}},
		{name: "empty values", env: map[string]string{"GRAPHQL_INTROSPECTION": " ", "GRAPHQL_MAX_DEPTH": ""},
			want: graphqlhttp.Config{}},
		{name: "APP_DEBUG is the program's, not the endpoint's", env: map[string]string{"APP_DEBUG": "true"},
			want: graphqlhttp.Config{}},
		{name: "GRAPHQL_INTROSPECTION false", env: map[string]string{"GRAPHQL_INTROSPECTION": "false"},
			want: graphqlhttp.Config{}},
		{name: "GRAPHQL_INTROSPECTION alone", env: map[string]string{"GRAPHQL_INTROSPECTION": "1"},
			want: graphqlhttp.Config{Introspection: true}},
		{name: "booleans as strconv reads them, white space trimmed", env: map[string]string{"GRAPHQL_INTROSPECTION": " TRUE "},
			want: graphqlhttp.Config{Introspection: true}},
		{name: "limits", env: map[string]string{"GRAPHQL_MAX_DEPTH": "5", "GRAPHQL_MAX_NODES": "100", "GRAPHQL_MAX_QUERY_LENGTH": " 1000 "},
			want: graphqlhttp.Config{Limits: limits.Config{MaxDepth: 5, MaxNodes: 100, MaxLength: 1000}}},
		{name: "cost and timeout", env: map[string]string{"GRAPHQL_MAX_COST": "20000", "GRAPHQL_TIMEOUT": "1m30s"},
			want: graphqlhttp.Config{Limits: limits.Config{MaxCost: 20000}, Timeout: 90 * time.Second}},
		{name: "no timeout", env: map[string]string{"GRAPHQL_TIMEOUT": "0"}, want: graphqlhttp.Config{}},
		{name: "everything", env: map[string]string{"GRAPHQL_INTROSPECTION": "true",
			"GRAPHQL_MAX_DEPTH": "12", "GRAPHQL_MAX_NODES": "1000", "GRAPHQL_MAX_QUERY_LENGTH": "40000",
			"GRAPHQL_MAX_COST": "9000", "GRAPHQL_TIMEOUT": "10s", "GRAPHQL_RESPONSE_BUDGET_WAIT": "3s", "GRAPHQL_STALL_TIMEOUT": " 500ms "},
			want: graphqlhttp.Config{Introspection: true, Timeout: 10 * time.Second,
				Limits:             limits.Config{MaxDepth: 12, MaxNodes: 1000, MaxLength: 40000, MaxCost: 9000},
				ResponseBudgetWait: 3 * time.Second, StallTimeout: 500 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := map[string]bool{}
			got, err := graphqlhttp.ConfigFromEnv(envOf(tt.env, asked))
			if err != nil {
				t.Fatalf("ConfigFromEnv: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ConfigFromEnv = %+v, want %+v", got, tt.want)
			}
			var names []string
			for n := range asked {
				names = append(names, n)
			}
			sort.Strings(names)
			wantNames := []string{"GRAPHQL_INTROSPECTION", "GRAPHQL_MAX_COST", "GRAPHQL_MAX_DEPTH", "GRAPHQL_MAX_NODES",
				"GRAPHQL_MAX_QUERY_LENGTH", "GRAPHQL_RESPONSE_BUDGET_WAIT", "GRAPHQL_STALL_TIMEOUT", "GRAPHQL_TIMEOUT"}
			if !reflect.DeepEqual(names, wantNames) {
				t.Errorf("variables read = %v, want %v", names, wantNames)
			}
		})
	}
}

func TestConfigFromEnvRejectsBadValues(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		wantNames []string // variables the error must name
	}{
		{name: "GRAPHQL_INTROSPECTION not a boolean", env: map[string]string{"GRAPHQL_INTROSPECTION": "on"}, wantNames: []string{`GRAPHQL_INTROSPECTION="on"`}},
		{name: "GRAPHQL_MAX_DEPTH zero", env: map[string]string{"GRAPHQL_MAX_DEPTH": "0"}, wantNames: []string{`GRAPHQL_MAX_DEPTH="0"`}},
		{name: "GRAPHQL_MAX_DEPTH negative", env: map[string]string{"GRAPHQL_MAX_DEPTH": "-1"}, wantNames: []string{`GRAPHQL_MAX_DEPTH="-1"`}},
		{name: "GRAPHQL_MAX_NODES not a number", env: map[string]string{"GRAPHQL_MAX_NODES": "lots"}, wantNames: []string{`GRAPHQL_MAX_NODES="lots"`}},
		{name: "GRAPHQL_MAX_NODES a fraction", env: map[string]string{"GRAPHQL_MAX_NODES": "1.5"}, wantNames: []string{`GRAPHQL_MAX_NODES="1.5"`}},
		{name: "GRAPHQL_MAX_QUERY_LENGTH with a unit", env: map[string]string{"GRAPHQL_MAX_QUERY_LENGTH": "20kb"}, wantNames: []string{`GRAPHQL_MAX_QUERY_LENGTH="20kb"`}},
		{name: "GRAPHQL_MAX_QUERY_LENGTH overflowing", env: map[string]string{"GRAPHQL_MAX_QUERY_LENGTH": "99999999999999999999"},
			wantNames: []string{`GRAPHQL_MAX_QUERY_LENGTH="99999999999999999999"`}},
		{name: "GRAPHQL_MAX_COST zero", env: map[string]string{"GRAPHQL_MAX_COST": "0"}, wantNames: []string{`GRAPHQL_MAX_COST="0"`}},
		{name: "GRAPHQL_TIMEOUT without a unit", env: map[string]string{"GRAPHQL_TIMEOUT": "30"}, wantNames: []string{`GRAPHQL_TIMEOUT="30"`}},
		{name: "GRAPHQL_TIMEOUT negative", env: map[string]string{"GRAPHQL_TIMEOUT": "-5s"}, wantNames: []string{`GRAPHQL_TIMEOUT="-5s"`}},
		{name: "GRAPHQL_RESPONSE_BUDGET_WAIT zero", env: map[string]string{"GRAPHQL_RESPONSE_BUDGET_WAIT": "0"},
			wantNames: []string{`GRAPHQL_RESPONSE_BUDGET_WAIT="0"`}},
		{name: "GRAPHQL_STALL_TIMEOUT without a unit", env: map[string]string{"GRAPHQL_STALL_TIMEOUT": "5"},
			wantNames: []string{`GRAPHQL_STALL_TIMEOUT="5"`}},
		{name: "GRAPHQL_STALL_TIMEOUT negative", env: map[string]string{"GRAPHQL_STALL_TIMEOUT": "-1s"},
			wantNames: []string{`GRAPHQL_STALL_TIMEOUT="-1s"`}},
		{name: "every bad value is named", env: map[string]string{"GRAPHQL_INTROSPECTION": "nope", "GRAPHQL_MAX_DEPTH": "x", "GRAPHQL_MAX_NODES": "0", "GRAPHQL_MAX_QUERY_LENGTH": "100"},
			wantNames: []string{"GRAPHQL_INTROSPECTION", "GRAPHQL_MAX_DEPTH", "GRAPHQL_MAX_NODES"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := graphqlhttp.ConfigFromEnv(envOf(tt.env, map[string]bool{}))
			if err == nil {
				t.Fatalf("ConfigFromEnv = %+v, nil; want an error", got)
			}
			for _, n := range tt.wantNames {
				if !strings.Contains(err.Error(), n) {
					t.Errorf("error %q does not name %s", err, n)
				}
			}
			if !reflect.DeepEqual(got, graphqlhttp.Config{}) {
				t.Errorf("ConfigFromEnv returned %+v with its error, want the zero Config", got)
			}
		})
	}
}

// TestConfigFromEnvServes checks that the settings read from the
// environment are the ones the handler enforces.
func TestConfigFromEnvServes(t *testing.T) {
	cfg, err := graphqlhttp.ConfigFromEnv(envOf(map[string]string{
		"GRAPHQL_INTROSPECTION": "false", "GRAPHQL_MAX_DEPTH": "2", "GRAPHQL_MAX_NODES": "3", "GRAPHQL_MAX_QUERY_LENGTH": "60",
	}, map[string]bool{}))
	if err != nil {
		t.Fatalf("ConfigFromEnv: %v", err)
	}
	cfg.Presenter.Debug = true // the program's debug mode (the example server's APP_DEBUG)
	ts := newTestServer(t, cfg)
	tests := []struct {
		req  request
		want want
	}{
		{req: request{contentType: "application/graphql", body: "{ node { name } }"},
			want: wantBody(200, `{"data":{"node":{"name":"n"}}}`)},
		{req: request{contentType: "application/graphql", body: "{ node { child { name } } }"},
			want: wantBody(400, limitBody("query depth 3 exceeds the maximum of 2", "depth", 2, 3, 1, 18))},
		{req: request{contentType: "application/graphql", body: "{ a:hello b:hello c:hello d:hello }"},
			want: wantBody(400, limitBody("query node count 4 exceeds the maximum of 3", "nodes", 3, 4, 1, 27))},
		{req: request{contentType: "application/graphql", body: "{ hello }" + strings.Repeat(" ", 52)},
			want: wantBody(400, limitBody("query length 61 bytes exceeds the maximum of 60 bytes", "length", 60, 61, 0, 0))},
		{req: request{contentType: "application/graphql", body: "{ __schema { description } }"},
			want: wantBody(400, errorsBodyAt("GraphQL introspection is not allowed, but the query contained __schema.", "GRAPHQL_VALIDATION_FAILED", 1, 3))},
		{req: request{contentType: "application/graphql", body: "{ fail }"},
			want: wantBody(200, `{"data":{"fail":null},"errors":[{"message":`+quote(secretCause)+`,"locations":[{"line":1,"column":3}],"path":["fail"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`)},
	}
	for _, tt := range tests {
		check(t, tt.req, ts.send(t, tt.req), tt.want)
	}
}
