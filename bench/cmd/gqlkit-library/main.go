// Command gqlkit-library is gqlkit's server of workload L of the shared
// benchmark harness: authors, their books and the books' reviews in
// PostgreSQL, served at POST /graphql by graphqlhttp with batch resolvers
// (one statement per level of an answer, no hand-written eager loading),
// and the statement counters at GET /stats:
//
//	{"statements":N,"requests":R,"request_statements":S}
//
// N counts every statement since start, R the /graphql requests that
// completed with the client still connected, S their statements.
//
// It reads DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/bench_library?sslmode=disable) and
// PG_POOL_SIZE (default 8), and listens on 127.0.0.1 at -port.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gqlkit/gqlkit/bench/internal/serve"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

const defaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/bench_library?sslmode=disable"

func main() {
	log.SetFlags(0)
	log.SetPrefix("gqlkit-library: ")
	if err := run(os.Args[1:], os.Getenv); err != nil {
		log.Fatal(err)
	}
}

func run(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("gqlkit-library", flag.ContinueOnError)
	port := fs.Int("port", 8080, "TCP port on 127.0.0.1")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("port %d is out of range", *port)
	}
	url := getenv("DATABASE_URL")
	if url == "" {
		url = defaultDatabaseURL
	}
	size, err := envInt(getenv, "PG_POOL_SIZE", 8)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	connect, cancel := context.WithTimeout(ctx, 10*time.Second)
	s, err := openStore(connect, url, size)
	cancel()
	if err != nil {
		return err
	}
	defer s.pool.Close()
	mux, err := newMux(s)
	if err != nil {
		return err
	}
	return serve.Loopback(ctx, *port, mux, "", "/graphql")
}

// newMux serves the schema over s at /graphql, counting each request's
// statements, and the counters at /stats.
func newMux(s *store) (*http.ServeMux, error) {
	schema, err := newSchema(s)
	if err != nil {
		return nil, err
	}
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: slog.New(slog.DiscardHandler)}})
	if err != nil {
		return nil, err
	}
	var requests, requestStatements atomic.Int64
	mux := http.NewServeMux()
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := new(atomic.Int64)
		h.ServeHTTP(w, r.WithContext(withCounter(r.Context(), n)))
		if r.Context().Err() == nil {
			requests.Add(1)
			requestStatements.Add(n.Load())
		}
	}))
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"statements":%d,"requests":%d,"request_statements":%d}`,
			s.statements.Load(), requests.Load(), requestStatements.Load())
	})
	return mux, nil
}
