// Command gqlkit-bench serves the benchmark workload (package sample) with
// gqlkit, for the shared HTTP harness of the peer servers:
//
//	gqlkit-bench -port 18080
//
// It listens on 127.0.0.1 only and serves POST (and GET) /graphql with
// graphqlhttp and its defaults (limits, document cache, introspection off),
// logging nothing per request. The port defaults to $PORT, else 8080.
// With -pprof, the runtime profiles are served on the same listener under
// /debug/pprof/ (for example
// go tool pprof http://127.0.0.1:18080/debug/pprof/profile?seconds=10).
// SIGINT or SIGTERM shuts the server down gracefully.
//
// With GQLKIT_BENCH_OTEL=1 the endpoint serves with the OpenTelemetry
// adapter (package otelgraphql) on, so that the harness measures its
// overhead: an SDK TracerProvider sampling every request, whose batch span
// processor exports to an exporter that discards the spans, and a
// MeterProvider with a manual reader (never read) for the duration
// histogram. Unset (or 0), the server is exactly the one without it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gqlkit/gqlkit/bench/internal/serve"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gqlkit/gqlkit/bench/internal/kit"
	"github.com/gqlkit/gqlkit/bench/sample"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gqlkit-bench: ")
	if err := run(os.Args[1:], os.Getenv); err != nil {
		log.Fatal(err)
	}
}

func run(args []string, getenv func(string) string) error {
	port := 8080
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("PORT=%q is not a port number", v)
		}
		port = p
	}
	fs := flag.NewFlagSet("gqlkit-bench", flag.ContinueOnError)
	fs.IntVar(&port, "port", port, "TCP port on 127.0.0.1 (the default is $PORT when set)")
	withPprof := fs.Bool("pprof", false, "serve runtime profiles under /debug/pprof/")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if port < 0 || port > 65535 {
		return fmt.Errorf("port %d is out of range", port)
	}

	cfg := kit.Config()
	if v := getenv("GQLKIT_BENCH_OTEL"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("GQLKIT_BENCH_OTEL=%q is not a boolean", v)
		}
		if on {
			tracer, shutdown, err := otelTracer()
			if err != nil {
				return err
			}
			defer shutdown()
			cfg.Tracer = tracer
			log.Printf("OpenTelemetry on: every request sampled, spans discarded")
		}
	}
	mux, err := newMuxConfig(*withPprof, cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.Loopback(ctx, port, mux, "", "/graphql")
}

// newMux returns the server's routes: /graphql, and the profiles under
// /debug/pprof/ when withPprof is set.
func newMux(withPprof bool) (*http.ServeMux, error) {
	return newMuxConfig(withPprof, kit.Config())
}

// newMuxConfig is newMux with the endpoint configured by cfg.
func newMuxConfig(withPprof bool, cfg graphqlhttp.Config) (*http.ServeMux, error) {
	store, err := sample.Load()
	if err != nil {
		return nil, err
	}
	h, err := kit.NewHandler(store, cfg)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", h)
	if withPprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux, nil
}

// otelTracer returns the OpenTelemetry adapter of GQLKIT_BENCH_OTEL=1: all
// the work of tracing every request (spans made, ended, queued and
// exported in batches; the histogram recorded) with nowhere to send it,
// and the function that stops it.
func otelTracer() (*otelgraphql.Tracer, func(), error) {
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	shutdown := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tp.Shutdown(ctx)
		_ = mp.Shutdown(ctx)
	}
	tracer, err := otelgraphql.New(otelgraphql.Config{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		shutdown()
		return nil, nil, err
	}
	return tracer, shutdown, nil
}
