// Command memload measures the memory of a running example server
// (examples/server) under the two read loads of docs/memory.md: pages of
// large articles over REST, and GraphQL queries of many aliases over a list
// of posts. It starts nothing itself; run.sh, next to this file, builds and
// starts the server on SQLite and PostgreSQL and runs every step.
//
// Seed the data, with a token of a user of the server (server token --user 1):
//
//	memload seed-articles -url http://127.0.0.1:8080 -token "$TOKEN" -n 100 -size 1048000
//	memload seed-posts    -url http://127.0.0.1:8080 -token "$TOKEN" -n 50 -size 19000
//
// then load it, anonymously, and read the server's memory from /proc:
//
//	memload rest    -url http://127.0.0.1:8080 -pid "$PID" -concurrency 10 -rounds 3
//	memload graphql -url http://127.0.0.1:8080 -pid "$PID" -concurrency 40 -rounds 3 -aliases 160
//
// A load sends rounds × concurrency requests, concurrency at a time, each
// client reading every answer to its end, and prints one line: the
// statuses, the bytes of an answer, the time taken, the peak resident
// memory of the server (VmHWM, reset first through clear_refs when the
// kernel allows, else since the server started), its VmRSS right after
// the load and after -idle of quiet.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }

// options are the flags of every sub-command.
type options struct {
	url         string
	token       string
	pid         int
	n, size     int
	concurrency int
	rounds      int
	perPage     int
	aliases     int
	first       int
	idle        time.Duration
	timeout     time.Duration
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: memload seed-articles|seed-posts|rest|graphql [flags]")
		return 2
	}
	o, err := parse(args[0], args[1:], stderr)
	if err != nil {
		return 2
	}
	c := newClient(o)
	switch args[0] {
	case "seed-articles":
		err = seedArticles(ctx, c, o)
	case "seed-posts":
		err = seedPosts(ctx, c, o)
	case "rest", "graphql":
		err = measure(ctx, c, o, args[0], stdout)
	default:
		err = fmt.Errorf("unknown sub-command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "memload:", err)
		return 1
	}
	return 0
}

func parse(name string, args []string, stderr io.Writer) (options, error) {
	o := options{url: "http://127.0.0.1:8080", n: 100, size: 1048000, concurrency: 10, rounds: 3,
		perPage: 100, aliases: 160, first: 50, idle: 0, timeout: 5 * time.Minute}
	fs := flag.NewFlagSet("memload "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.url, "url", o.url, "the server, on a loopback address")
	fs.StringVar(&o.token, "token", "", "a bearer token for the seed-* commands")
	fs.IntVar(&o.pid, "pid", 0, "the server's process id, to read its memory")
	fs.IntVar(&o.n, "n", o.n, "seed-*: articles or posts to create")
	fs.IntVar(&o.size, "size", o.size, "seed-*: bytes of each body")
	fs.IntVar(&o.concurrency, "concurrency", o.concurrency, "requests in flight")
	fs.IntVar(&o.rounds, "rounds", o.rounds, "requests per client")
	fs.IntVar(&o.perPage, "per-page", o.perPage, "rest: per_page of the list")
	fs.IntVar(&o.aliases, "aliases", o.aliases, "graphql: aliases of posts(first: N) { body }")
	fs.IntVar(&o.first, "first", o.first, "graphql: N of posts(first: N)")
	fs.DurationVar(&o.idle, "idle", o.idle, "quiet time after the load before VmRSS is read again")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "bound of one request")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.n < 1 || o.size < 1 || o.concurrency < 1 || o.rounds < 1 || o.aliases < 1 || o.first < 1 {
		fmt.Fprintf(stderr, "memload %s: -n, -size, -concurrency, -rounds, -aliases and -first must be positive\n", name)
		return o, flag.ErrHelp
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "memload %s: unexpected arguments %q\n", name, fs.Args())
		return o, flag.ErrHelp
	}
	return o, nil
}
