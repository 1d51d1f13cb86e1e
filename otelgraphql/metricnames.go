package otelgraphql

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/gqlkit/gqlkit/graphql"
)

// metricNames keeps the operation names the metric admits and the record
// options of every attribute combination seen, so that recording a request
// allocates nothing once its combination is known. Both are copied on
// write: reading them takes no lock, and they stop growing at the bound.
type metricNames struct {
	admitted cowMap[string, string] // a name to its own copy
	sets     cowMap[metricKey, []metric.RecordOption]
}

type metricKey struct{ typ, name, outcome string }

// options returns the record options of a request: its attribute set.
func (m *metricNames) options(maxNames int, info graphql.RequestInfo, out string) []metric.RecordOption {
	key := metricKey{typ: info.OperationType, name: m.bound(maxNames, info.OperationName), outcome: out}
	switch key.typ {
	case "", "query", "mutation", "subscription":
	default:
		key.typ = OverflowOperationName
	}
	o, _ := m.sets.loadOrStore(key, func(int) (metricKey, []metric.RecordOption, bool) {
		return key, []metric.RecordOption{metric.WithAttributeSet(metricAttributes(key))}, true
	})
	return o
}

// metricAttributes is the attribute set of a metric key.
func metricAttributes(key metricKey) attribute.Set {
	attrs := make([]attribute.KeyValue, 0, 3)
	if key.typ != "" {
		attrs = append(attrs, semconv.GraphQLOperationTypeKey.String(key.typ))
	}
	if key.name != "" {
		attrs = append(attrs, semconv.GraphQLOperationName(key.name))
	}
	attrs = append(attrs, OutcomeKey.String(key.outcome))
	return attribute.NewSet(attrs...)
}

// bound returns name when the metric admits it (admitting it when there is
// room), OverflowOperationName when there is none, and "" for an
// anonymous operation or when names are left out (maxNames < 0).
func (m *metricNames) bound(maxNames int, name string) string {
	if name == "" || maxNames < 0 {
		return ""
	}
	if own, ok := m.admitted.load(name); ok {
		return own
	}
	if m.admitted.len() >= maxNames { // full: no lock for the names past the bound
		return OverflowOperationName
	}
	own, ok := m.admitted.loadOrStore(name, func(n int) (string, string, bool) {
		if n >= maxNames {
			return "", "", false
		}
		// A copy of its own: the name may be part of a whole document
		// that the metric must not keep alive.
		own := strings.Clone(name)
		return own, own, true
	})
	if !ok {
		return OverflowOperationName
	}
	return own
}

// cowMap is a map that readers use without a lock and writers copy whole:
// for the few keys a process meets (field span names, operation names,
// metric attribute sets), read on every request.
type cowMap[K comparable, V any] struct {
	m  atomic.Pointer[map[K]V]
	mu sync.Mutex // serialises the writers
}

func (c *cowMap[K, V]) load(k K) (V, bool) {
	if m := c.m.Load(); m != nil {
		v, ok := (*m)[k]
		return v, ok
	}
	var zero V
	return zero, false
}

func (c *cowMap[K, V]) len() int { return mapLen(c.m.Load()) }

// loadOrStore returns the value of k. When there is none, newEntry, given
// the number of keys, returns the key to store (a copy of k the map may
// keep), its value, and whether to store it at all; declined, the result
// is false.
func (c *cowMap[K, V]) loadOrStore(k K, newEntry func(n int) (K, V, bool)) (V, bool) {
	if v, ok := c.load(k); ok {
		return v, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil {
		if v, ok := (*old)[k]; ok {
			return v, true
		}
	}
	key, v, ok := newEntry(mapLen(old))
	if !ok {
		return v, false
	}
	next := make(map[K]V, mapLen(old)+1)
	if old != nil {
		maps.Copy(next, *old)
	}
	next[key] = v
	c.m.Store(&next)
	return v, true
}

func mapLen[K comparable, V any](m *map[K]V) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
