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
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gqlkit/gqlkit/bench/internal/kit"
	"github.com/gqlkit/gqlkit/bench/sample"
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

	mux, err := newMux(*withPprof)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Printf("serving http://%s/graphql", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// newMux returns the server's routes: /graphql, and the profiles under
// /debug/pprof/ when withPprof is set.
func newMux(withPprof bool) (*http.ServeMux, error) {
	store, err := sample.Load()
	if err != nil {
		return nil, err
	}
	h, err := kit.NewHandler(store, kit.Config())
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
