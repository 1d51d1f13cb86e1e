package main

import (
	"net/http"
	"strings"
	"testing"

	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"

	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

func TestParseMetrics(t *testing.T) {
	for _, tc := range []struct {
		env       []string
		otlp      bool
		endpoint  string
		wantError string
	}{
		{},
		// The generic endpoint alone is for traces.
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"}},
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_METRICS_EXPORTER", "otlp"},
			otlp: true, endpoint: "http://collector:4318"},
		{env: []string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "https://collector/v1/metrics"},
			otlp: true, endpoint: "https://collector/v1/metrics"},
		{env: []string{"OTEL_METRICS_EXPORTER", " OTLP "}, otlp: true},
		{env: []string{"OTEL_METRICS_EXPORTER", "none", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://collector:4318/v1/metrics"}},
		{env: []string{"OTEL_METRICS_EXPORTER", "otlp", "OTEL_SDK_DISABLED", "true"}},
		{env: []string{"OTEL_METRICS_EXPORTER", "prometheus"},
			wantError: `OTEL_METRICS_EXPORTER="prometheus" is not one of otlp and none`},
		{env: []string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "collector:4318"},
			wantError: `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT="collector:4318" is not an http(s) URL`},
		{env: []string{"OTEL_METRICS_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "grpc"},
			wantError: `OTEL_EXPORTER_OTLP_METRICS_PROTOCOL="grpc" is not supported`},
	} {
		env := map[string]string{}
		for i := 0; i+1 < len(tc.env); i += 2 {
			env[tc.env[i]] = tc.env[i+1]
		}
		got, problems := parseTelemetry(func(k string) string { return env[k] })
		switch {
		case tc.wantError != "":
			if !strings.Contains(strings.Join(problems, "; "), tc.wantError) {
				t.Errorf("%v: problems %q, want one containing %q", tc.env, problems, tc.wantError)
			}
		case len(problems) > 0:
			t.Errorf("%v: problems %q", tc.env, problems)
		case got.metrics.otlp != tc.otlp || got.metrics.endpoint != tc.endpoint:
			t.Errorf("%v: metrics %+v, want otlp %v to %q", tc.env, got.metrics, tc.otlp, tc.endpoint)
		}
	}
}

// TestMetricsOTLP runs the binary with OTLP metrics (and no traces) to a
// collector on loopback: the operation durations and the document cache's
// lookups reach it, at the latest when the server stops.
func TestMetricsOTLP(t *testing.T) {
	testenv.SkipIfShort(t, "metrics: the server binary and a collector on loopback")
	collector := newOTLPCollector(t, "/v1/metrics", func() *collectormetrics.ExportMetricsServiceRequest {
		return &collectormetrics.ExportMetricsServiceRequest{}
	}, &collectormetrics.ExportMetricsServiceResponse{})

	db := sqliteDatabase(t)
	p, _ := db.launchWithStdout(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL, "OTEL_METRICS_EXPORTER=otlp",
		"OTEL_TRACES_EXPORTER=none", "OTEL_METRIC_EXPORT_INTERVAL=60000") // nothing is sent before the shutdown's flush
	p.waitFor(t, "metrics line", func(l logLine) bool { return l.message() == "metrics: otlp to "+collector.URL })
	// The cache admits a document on its second request: a miss, a miss,
	// then a hit.
	for range 3 {
		if r := send(t, http.MethodPost, p.base+"/api/graphql", postsQueryBody, "Content-Type", "application/json"); r.status != http.StatusOK {
			t.Fatalf("posts: %d %s", r.status, r.body)
		}
	}
	p.stop(t)

	var requests uint64
	lookups := map[bool]int64{}
	for _, req := range collector.requests(t) {
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					switch m.Name {
					case otelgraphql.MetricName:
						for _, dp := range m.GetHistogram().GetDataPoints() {
							requests = max(requests, dp.Count) // cumulative: the last export holds the total
						}
					case otelgraphql.LookupsMetricName:
						for _, dp := range m.GetSum().GetDataPoints() {
							for _, a := range dp.Attributes {
								if a.Key == string(otelgraphql.CachedKey) {
									cached := a.Value.GetBoolValue()
									lookups[cached] = max(lookups[cached], dp.GetAsInt())
								}
							}
						}
					}
				}
			}
		}
	}
	if requests != 3 {
		t.Errorf("%s: %d requests at the collector, want 3", otelgraphql.MetricName, requests)
	}
	if lookups[false] != 2 || lookups[true] != 1 {
		t.Errorf("%s: %d misses and %d hits at the collector, want 2 and 1", otelgraphql.LookupsMetricName, lookups[false], lookups[true])
	}
}
