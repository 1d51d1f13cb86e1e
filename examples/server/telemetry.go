package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// defaultServiceName is service.name when OTEL_SERVICE_NAME is unset.
const defaultServiceName = "gqlkit-example"

// The trace exporters OTEL_TRACES_EXPORTER may name.
const (
	exporterConsole = "console"
	exporterOTLP    = "otlp"
	exporterNone    = "none"
)

// telemetrySettings says where the server sends its spans, read from the
// standard OpenTelemetry variables.
type telemetrySettings struct {
	// exporters are console and/or otlp; empty: no tracing at all.
	exporters   []string
	serviceName string          // OTEL_SERVICE_NAME
	endpoint    string          // the OTLP endpoint named in the environment, for the log; "" for otlptracehttp's default
	metrics     metricsSettings // metrics.go
}

func (t telemetrySettings) on() bool { return len(t.exporters) > 0 }

// parseTelemetry reads the OpenTelemetry variables through getenv and
// returns the problems it finds, each naming its variable:
//
//   - OTEL_TRACES_EXPORTER: a comma-separated list of console (spans as
//     JSON lines on standard output) and otlp (OTLP over HTTP), or none;
//     when unset, otlp if an OTLP endpoint is set, else none;
//   - OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the
//     collector, an http(s) URL; the exporter reads them and the other
//     OTEL_EXPORTER_OTLP_* variables (headers, timeout, compression,
//     certificates) from the process's environment itself;
//   - OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL:
//     only http/protobuf, the one protocol the server speaks;
//   - OTEL_SERVICE_NAME: service.name, gqlkit-example by default;
//   - OTEL_SDK_DISABLED=true turns tracing off whatever the others say.
//
// The SDK reads OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG,
// OTEL_RESOURCE_ATTRIBUTES and OTEL_BSP_* from the environment itself.
func parseTelemetry(getenv func(string) string) (telemetrySettings, []string) {
	t := telemetrySettings{serviceName: defaultServiceName}
	if v := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); v != "" {
		t.serviceName = v
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return t, nil
	}
	var problems []string
	endpoint := ""
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("%s=%q is not an http(s) URL such as http://localhost:4318", name, v))
		}
		if endpoint == "" {
			endpoint = v
		}
	}

	raw := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	switch {
	case raw != "":
		for _, e := range strings.Split(raw, ",") {
			e = strings.ToLower(strings.TrimSpace(e))
			switch e {
			case exporterConsole, exporterOTLP, exporterNone:
				if !slices.Contains(t.exporters, e) {
					t.exporters = append(t.exporters, e)
				}
			default:
				problems = append(problems, fmt.Sprintf("OTEL_TRACES_EXPORTER=%q: %q is not one of console, otlp and none", raw, e))
			}
		}
		if slices.Contains(t.exporters, exporterNone) {
			if len(t.exporters) > 1 {
				problems = append(problems, fmt.Sprintf("OTEL_TRACES_EXPORTER=%q: none cannot be combined with an exporter", raw))
			}
			t.exporters = nil
		}
	case endpoint != "":
		t.exporters = []string{exporterOTLP}
	}

	if slices.Contains(t.exporters, exporterOTLP) {
		t.endpoint = endpoint
		for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
			if v := strings.TrimSpace(getenv(name)); v != "" && v != "http/protobuf" {
				problems = append(problems, fmt.Sprintf("%s=%q is not supported: the server exports OTLP over HTTP (http/protobuf)", name, v))
			}
		}
	}
	metrics, metricProblems := parseMetrics(getenv)
	problems = append(problems, metricProblems...)
	t.metrics = metrics
	if len(problems) > 0 {
		return telemetrySettings{}, problems
	}
	return t, nil
}

// telemetry is the server's tracing and metrics: off (the zero value), or
// a tracer provider and the HTTP middleware over it, a meter provider, and
// the GraphQL tracer that reports to both.
type telemetry struct {
	tp     *sdktrace.TracerProvider // nil when tracing is off
	mp     *sdkmetric.MeterProvider // nil when metrics are off
	tracer graphql.Tracer           // graphqlhttp.Config.Tracer; nil when both are off
}

// newTelemetry makes the tracer provider that s asks for, exporting to
// stdout (console) or to an OTLP collector, or nothing when tracing is
// off.
func newTelemetry(ctx context.Context, s telemetrySettings, stdout io.Writer) (*telemetry, error) {
	if !s.on() && !s.metrics.otlp {
		return &telemetry{}, nil
	}
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // OTEL_RESOURCE_ATTRIBUTES
		resource.WithAttributes(semconv.ServiceName(s.serviceName)))
	if err != nil {
		return nil, fmt.Errorf("tracing: the resource (OTEL_RESOURCE_ATTRIBUTES): %w", err)
	}
	mp, err := newMeterProvider(ctx, s.metrics, res)
	if err != nil {
		return nil, err
	}
	cfg := otelgraphql.Config{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}
	if mp != nil {
		cfg.MeterProvider = mp
	}
	if !s.on() {
		tracer, err := otelgraphql.New(cfg)
		if err != nil {
			_ = mp.Shutdown(ctx)
			return nil, err
		}
		return &telemetry{mp: mp, tracer: tracer}, nil
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	for _, e := range s.exporters {
		switch e {
		case exporterConsole:
			exp, err := stdouttrace.New(stdouttrace.WithWriter(stdout))
			if err != nil {
				return nil, fmt.Errorf("tracing: the console exporter: %w", err)
			}
			// Each span is written as it ends: the console is for
			// watching a server at work, not for production traffic.
			opts = append(opts, sdktrace.WithSyncer(exp))
		case exporterOTLP:
			exp, err := otlptracehttp.New(ctx)
			if err != nil {
				return nil, fmt.Errorf("tracing: the OTLP exporter: %w", err)
			}
			opts = append(opts, sdktrace.WithBatcher(exp))
		}
	}
	tp := sdktrace.NewTracerProvider(opts...)
	cfg.TracerProvider = tp
	tracer, err := otelgraphql.New(cfg)
	if err != nil {
		_ = tp.Shutdown(ctx)
		if mp != nil {
			_ = mp.Shutdown(ctx)
		}
		return nil, err
	}
	return &telemetry{tp: tp, mp: mp, tracer: tracer}, nil
}

// handler wraps the whole router, mux inside the middleware inside: an
// HTTP server span for every request, continuing the trace of an incoming
// traceparent header (W3C Trace Context) and named by method and route
// once the mux has routed the request ("POST /api/graphql"); the route is
// added to the span, and the ids of the trace reach the request's log lines
// from its context (see traceIDs). Off, it returns inside(mux).
func (t *telemetry) handler(mux http.Handler, inside func(http.Handler) http.Handler) http.Handler {
	if t.tp == nil {
		return inside(mux)
	}
	return otelhttp.NewHandler(inside(routeAttribute(mux)), "http.server",
		otelhttp.WithTracerProvider(t.tp),
		otelhttp.WithPropagators(propagation.TraceContext{}),
		otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()))
}

// routeAttribute puts the route the mux matched (its pattern without the
// method) on the request's span as http.route, which otelhttp cannot know
// when it starts the span, above the mux.
func routeAttribute(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if i := strings.IndexByte(r.Pattern, '/'); i >= 0 {
				trace.SpanFromContext(r.Context()).SetAttributes(semconv.HTTPRoute(r.Pattern[i:]))
			}
		}()
		mux.ServeHTTP(w, r)
	})
}

// describe says where the spans go, for the startup log.
func (s telemetrySettings) describe() string {
	if !s.on() {
		return "off"
	}
	parts := make([]string, 0, len(s.exporters))
	for _, e := range s.exporters {
		switch e {
		case exporterConsole:
			parts = append(parts, "console (standard output)")
		case exporterOTLP:
			where := s.endpoint
			if where == "" {
				where = "the default endpoint"
			}
			parts = append(parts, "otlp to "+where)
		}
	}
	return strings.Join(parts, ", ")
}

// telemetryFlushTimeout bounds the flush of the spans still queued when the
// server stops.
const telemetryFlushTimeout = 5 * time.Second

// shutdown flushes the spans still queued and the metrics recorded since
// the last export, and stops the exporters; a failure is logged, not
// returned: the server has stopped all the same.
func (t *telemetry) shutdown(logger *zerolog.Logger) {
	if t.tp == nil && t.mp == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), telemetryFlushTimeout)
	defer cancel()
	if t.tp != nil {
		if err := t.tp.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
			logger.Warn().Err(err).Msg("tracing: flushing the last spans failed")
		}
	}
	if t.mp != nil {
		if err := t.mp.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
			logger.Warn().Err(err).Msg("metrics: exporting the last metrics failed")
		}
	}
}
