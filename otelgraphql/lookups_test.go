package otelgraphql_test

import (
	"context"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/gqlkit/gqlkit/otelgraphql"
)

// lookups returns the lookups counter's values: misses and hits.
func lookups(t testing.TB, reader *sdkmetric.ManualReader) (misses, hits int64) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != otelgraphql.LookupsMetricName {
				continue
			}
			if m.Unit != "{lookup}" {
				t.Errorf("unit %q, want {lookup}", m.Unit)
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok || !sum.IsMonotonic {
				t.Fatalf("%s is a %T (monotonic: %v), want a counter", m.Name, m.Data, ok && sum.IsMonotonic)
			}
			for _, dp := range sum.DataPoints {
				cached, ok := dp.Attributes.Value(otelgraphql.CachedKey)
				if !ok || dp.Attributes.Len() != 1 {
					t.Errorf("attributes %v, want only %s", dp.Attributes.ToSlice(), otelgraphql.CachedKey)
				}
				if cached.AsBool() {
					hits += dp.Value
				} else {
					misses += dp.Value
				}
			}
		}
	}
	return misses, hits
}

func TestDocumentLookups(t *testing.T) {
	for _, cfg := range []otelgraphql.Config{{}, {SkipPhases: true}} {
		t.Run("SkipPhases="+map[bool]string{false: "false", true: "true"}[cfg.SkipPhases], func(t *testing.T) {
			r := newRig(t, cfg)
			// The cache admits a document on its second request; the
			// third is answered from it.
			for i, want := range []bool{false, false, true} {
				op := r.query(t, http.StatusOK, postsQuery).operation(t)
				if got := attrs(op)[otelgraphql.CachedKey]; got.Type() != attribute.BOOL || got.AsBool() != want {
					t.Errorf("request %d: %s = %v, want %v", i+1, otelgraphql.CachedKey, got.String(), want)
				}
			}
			// A document that does not parse is looked up (and missed).
			op := r.query(t, http.StatusBadRequest, `{"query":"{"}`).operation(t)
			wantAttrs(t, op, map[attribute.Key]any{otelgraphql.CachedKey: false})
			// A body that is not JSON never gets to the lookup.
			op = r.query(t, http.StatusBadRequest, `{`).operation(t)
			wantAttrs(t, op, map[attribute.Key]any{otelgraphql.CachedKey: nil})

			if misses, hits := lookups(t, r.reader); misses != 3 || hits != 1 {
				t.Errorf("lookups: %d misses, %d hits; want 3, 1", misses, hits)
			}
		})
	}
}
