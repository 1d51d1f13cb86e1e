// Command soak puts a running example server (examples/server) under a mixed
// load for a bounded time, then checks that nothing was lost, duplicated or
// leaked, and prints a summary in Markdown.
//
// It starts nothing itself. Build and start the server, add users, then:
//
//	go run ./examples/soak -url http://127.0.0.1:8080 \
//		-users ada@example.com:secret,bob@example.com:secret -pid "$SERVER_PID"
//
// run.sh, next to this file, does all of that on a fresh SQLite database and,
// when TEST_DATABASE_URL is set, on a fresh PostgreSQL schema.
//
// # Flags
//
//	-url          the server, on a loopback address only (http://127.0.0.1:8080)
//	-duration     how long the measured load runs (60s; at most 1h)
//	-warmup       load before the resource baseline is read (5s)
//	-settle       pause after each load phase before resources are read (5s)
//	-concurrency  clients sending requests one after another (8)
//	-users        email:password pairs, comma-separated, logged in through
//	              POST /api/auth/login
//	-tokens       bearer tokens, comma-separated, used as they are
//	-pid          the server's process id, to read its resources (0: skip)
//	-timeout      bound of one request (10s)
//	-seed         seed of the random choices (0: from the clock)
//	-label        the title of the summary
//
// At least one user (or token) is needed. Each client acts for one of them,
// in turn.
//
// # Load
//
// Each client picks its next request at random, by weight, from:
//
//   - GraphQL: posts with their authors, post(id) of a post it created,
//     post(id) with an inline id (so that the document cache fills up),
//     createPost, deletePost of its own posts and of missing ones;
//   - articles: pages of the list, show of an article it created (or of a
//     missing one), create (published or not) and delete of its own;
//   - the health check;
//   - hostile and invalid requests: malformed JSON, a batch, a too-deep and a
//     too-wide query, wrong variables, missing, malformed, forged and "none"
//     tokens, 2 MiB bodies, unknown routes, wrong methods, invalid articles
//     and pagination.
//
// Every request has a set of statuses it may get; anything else, a transport
// error included, is an unexpected answer. Each one's status and latency is
// recorded.
//
// # Checks
//
// After the load stops, soak reads back every write the server acknowledged:
// each article answered 201 is shown by GET /api/articles/{id} when it is
// published, and deleted with a 204 when it is a draft (the only way a draft
// can be seen); each post answered by createPost is returned by post(id);
// each article answered 204 and each post deleted by deletePost is gone. A
// missing write or a deleted one that is back is a lost write. The ids the
// server handed out must be unique, the pages of the list must hold no id
// twice, and their total must grow by exactly the number of published
// articles the soak left behind. A write whose outcome the soak never learnt
// (a 5xx or a transport error) is reported and left out of these checks.
//
// # Resources
//
// The server has no pprof endpoint, so its goroutines cannot be counted from
// outside. With -pid, soak reads /proc/<pid>/status instead: VmRSS and the
// number of threads, and it counts the open file descriptors in
// /proc/<pid>/fd (every client connection and database connection holds
// one, so leaked connections, and the goroutines that serve them, show up
// there). They are read three times: idle, before any load; warm, after the
// warm-up and a settle period; and after the load and another settle period.
// The after readings must be near the warm ones: RSS within
// max(50% of warm, 32 MiB) above it, at most 4 more threads and 4 more
// descriptors.
//
// # Exit status
//
// 0 when every check passes, 1 when one fails or the server cannot be used,
// 2 on a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, soaks the server and prints the summary to stdout; it
// returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "soak: %v\n", err)
		return 2
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "soak: "+format+"\n", args...) }
	res, err := soak(ctx, cfg, logf)
	if err != nil {
		fmt.Fprintf(stderr, "soak: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, res.markdown())
	if !res.passed() {
		logf("FAIL: %s", res.verdicts())
		return 1
	}
	return 0
}
