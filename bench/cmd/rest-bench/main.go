// Command rest-bench serves GET /api/articles for the REST benchmark
// (bench/rest/run.sh), from gqlkit's articles handler or from the bare
// hand-written one, over SQLite or PostgreSQL:
//
//	rest-bench -impl kit  -db sqlite:/tmp/rest.db -port 18090
//	rest-bench -impl bare -db 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable&search_path=rest_bench' -port 18090
//
// It listens on 127.0.0.1 only and logs nothing per request. The port
// defaults to $PORT, else 8080. The database is migrated on start; the
// handlers are those of package rest (the kit's without auth middleware).
//
// Two flags prepare the data instead of serving:
//
//	-seed   store the workload (rest.Seed) and exit. A SQLite file must hold
//	        no articles yet; a PostgreSQL URL must name a schema rest_bench…
//	        in its search_path, which is dropped and created afresh.
//	-drop   drop that PostgreSQL schema and exit.
//
// With -pprof the runtime profiles are served under /debug/pprof/ on the
// same listener. SIGINT or SIGTERM shuts the server down gracefully.
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
	"strings"
	"syscall"

	"github.com/gqlkit/gqlkit/bench/internal/serve"

	"github.com/gqlkit/gqlkit/bench/rest"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("rest-bench: ")
	if err := run(os.Args[1:], os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// options are the command line.
type options struct {
	port       int
	impl       string
	db         string
	seed, drop bool
	pprof      bool
}

func parse(args []string, getenv func(string) string) (options, error) {
	o := options{port: 8080, impl: "kit"}
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("PORT=%q is not a port number", v)
		}
		o.port = p
	}
	fs := flag.NewFlagSet("rest-bench", flag.ContinueOnError)
	fs.IntVar(&o.port, "port", o.port, "TCP port on 127.0.0.1 (the default is $PORT when set)")
	fs.StringVar(&o.impl, "impl", o.impl, "the handler: kit (gqlkit's articles.Handler) or bare (hand-written)")
	fs.StringVar(&o.db, "db", "", "the database: sqlite:PATH or a postgres:// URL (required)")
	fs.BoolVar(&o.seed, "seed", false, "store the workload and exit")
	fs.BoolVar(&o.drop, "drop", false, "drop the PostgreSQL schema of the URL's search_path and exit")
	fs.BoolVar(&o.pprof, "pprof", false, "serve runtime profiles under /debug/pprof/")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.db == "":
		return o, errors.New("-db is required: sqlite:PATH or a postgres:// URL")
	case o.impl != "kit" && o.impl != "bare":
		return o, fmt.Errorf("-impl %q: want kit or bare", o.impl)
	case o.port < 0 || o.port > 65535:
		return o, fmt.Errorf("port %d is out of range", o.port)
	case o.seed && o.drop:
		return o, errors.New("-seed and -drop exclude each other")
	case o.drop && !isPostgres(o.db):
		return o, errors.New("-drop is for PostgreSQL only; remove the SQLite file instead")
	}
	return o, nil
}

func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

func run(args []string, getenv func(string) string) error {
	o, err := parse(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if o.drop || (o.seed && isPostgres(o.db)) {
		schema, err := rest.SearchPath(o.db)
		if err != nil {
			return err
		}
		if o.drop {
			return rest.DropSchema(ctx, o.db, schema)
		}
		if err := rest.ResetSchema(ctx, o.db, schema); err != nil {
			return err
		}
	}
	db, err := rest.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer db.Close()
	if o.seed {
		if err := rest.Seed(ctx, db.Store); err != nil {
			return err
		}
		log.Printf("seeded %d articles by %d authors (%s)", rest.Articles, rest.Authors, db.Kind)
		return nil
	}

	mux, err := newMux(db, o.impl, o.pprof)
	if err != nil {
		return err
	}
	return serve.Loopback(ctx, o.port, mux, fmt.Sprintf("%s on %s: ", o.impl, db.Kind), rest.Path)
}

// newMux returns the routes: the handler impl ("kit" or "bare") over db,
// and the profiles under /debug/pprof/ when withPprof is set.
func newMux(db *rest.DB, impl string, withPprof bool) (http.Handler, error) {
	h := db.Bare()
	if impl == "kit" {
		var err error
		if h, err = db.Kit(); err != nil {
			return nil, err
		}
	}
	if !withPprof {
		return h, nil
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux, nil
}
