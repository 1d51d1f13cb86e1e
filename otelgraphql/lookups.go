package otelgraphql

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/gqlkit/gqlkit/graphql"
)

// This file counts the document lookups of the Preparer's cache (see the
// package documentation, Metrics), from the phases graphql reports.

// lookup is the outcome of a request's document lookup.
type lookup uint8

const (
	lookupUnknown lookup = iota // not looked up (yet)
	lookupMiss
	lookupHit
)

// lookupOptions are the add options of a miss and of a hit, made once.
var lookupOptions = [2][]metric.AddOption{
	{metric.WithAttributeSet(attribute.NewSet(CachedKey.Bool(false)))},
	{metric.WithAttributeSet(attribute.NewSet(CachedKey.Bool(true)))},
}

// noteLookup notes the outcome of the request's document lookup at its
// first phase of Prepare, and counts it: the validate phase of a cached
// document, or the scan or the parse (or the validate phase, when neither
// is reported) of a document checked anew.
func (t *Tracer) noteLookup(ctx context.Context, p graphql.PhaseInfo) {
	switch p.Phase {
	case graphql.PhaseScan, graphql.PhaseParse, graphql.PhaseValidate:
	default:
		return
	}
	r := requestOf(ctx)
	if r == nil || r.lookup != lookupUnknown {
		return
	}
	r.lookup = lookupMiss
	if p.Phase == graphql.PhaseValidate && p.Cached {
		r.lookup = lookupHit
	}
	if t.lookups != nil {
		t.lookups.Add(ctx, 1, lookupOptions[boolIndex(r.lookup == lookupHit)]...)
	}
}
