package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
)

// metricsSettings says whether the server exports its metrics (those of
// package otelgraphql: the duration of GraphQL requests and the lookups of
// the document cache) and where, read from the standard OpenTelemetry
// variables.
type metricsSettings struct {
	otlp     bool   // exported over OTLP/HTTP
	endpoint string // the OTLP endpoint named in the environment, for the log; "" for the exporter's default
}

// parseMetrics reads the metric variables through getenv and returns the
// problems it finds, each naming its variable:
//
//   - OTEL_METRICS_EXPORTER: otlp or none; when unset, otlp if
//     OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is set, else none. The generic
//     OTEL_EXPORTER_OTLP_ENDPOINT alone turns on traces only, so that a
//     deployment that set it for its traces does not start sending
//     metrics to a collector that may not take them: set
//     OTEL_METRICS_EXPORTER=otlp to send them there too;
//   - OTEL_EXPORTER_OTLP_METRICS_ENDPOINT (the whole URL, /v1/metrics
//     included) or OTEL_EXPORTER_OTLP_ENDPOINT (the base URL): an http(s)
//     URL; the exporter reads them and the other OTEL_EXPORTER_OTLP_*
//     variables itself;
//   - OTEL_EXPORTER_OTLP_METRICS_PROTOCOL, OTEL_EXPORTER_OTLP_PROTOCOL:
//     only http/protobuf.
//
// The SDK reads OTEL_METRIC_EXPORT_INTERVAL (60 s) and
// OTEL_METRIC_EXPORT_TIMEOUT (30 s) itself. OTEL_SDK_DISABLED=true turns
// metrics off as it does tracing (parseTelemetry).
func parseMetrics(getenv func(string) string) (metricsSettings, []string) {
	var m metricsSettings
	var problems []string
	specific := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"))
	if specific != "" {
		if u, err := url.Parse(specific); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=%q is not an http(s) URL such as http://localhost:4318/v1/metrics", specific))
		}
	}
	switch raw := strings.ToLower(strings.TrimSpace(getenv("OTEL_METRICS_EXPORTER"))); raw {
	case "":
		m.otlp = specific != ""
	case exporterOTLP:
		m.otlp = true
	case exporterNone:
	default:
		problems = append(problems, fmt.Sprintf("OTEL_METRICS_EXPORTER=%q is not one of otlp and none", getenv("OTEL_METRICS_EXPORTER")))
	}
	if m.otlp {
		m.endpoint = specific
		if m.endpoint == "" {
			m.endpoint = strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) // checked by parseTelemetry
		}
		for _, name := range []string{"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
			if v := strings.TrimSpace(getenv(name)); v != "" && v != "http/protobuf" {
				problems = append(problems, fmt.Sprintf("%s=%q is not supported: the server exports OTLP over HTTP (http/protobuf)", name, v))
			}
		}
	}
	if len(problems) > 0 {
		return metricsSettings{}, problems
	}
	return m, nil
}

// newMeterProvider returns the meter provider that m asks for, exporting
// periodically over OTLP, or nil when metrics are off.
func newMeterProvider(ctx context.Context, m metricsSettings, res *resource.Resource) (*sdkmetric.MeterProvider, error) {
	if !m.otlp {
		return nil, nil
	}
	exp, err := otlpmetrichttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("metrics: the OTLP exporter: %w", err)
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp))), nil
}

// describe says where the metrics go, for the startup log.
func (m metricsSettings) describe() string {
	switch {
	case !m.otlp:
		return "off"
	case m.endpoint == "":
		return "otlp to the default endpoint"
	}
	return "otlp to " + m.endpoint
}
