// Command soak puts a running example server (examples/server) under a mixed
// load for a bounded time, then checks that nothing was lost, duplicated or
// leaked, and prints a summary in Markdown. In crash mode (-crash, see
// below) it runs the server itself and kills it again and again under
// creates retried with an Idempotency-Key.
//
// In its default mode it starts nothing itself. Build and start the server,
// add users, then:
//
//	go -C examples run ./soak -url http://127.0.0.1:8080 \
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
// and, for the crash mode only:
//
//	-crash        run the server and kill it (see Crash mode)
//	-server       the path of the example server's binary
//	-kills        how many times the server is killed (10)
//	-kill-min     least time from a start of the server to the next kill (1s)
//	-kill-max     most time from a start of the server to the next kill (3s)
//	-keys         send an Idempotency-Key with every create (true); with
//	              -keys=false the same run shows what retries do without
//	-server-log   append the server's output to this file (else a
//	              temporary file, removed at the end)
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
//   - articles: pages of the list (half of them at the end of the list as
//     the client last saw it, or just after it; page sizes 1 to 100), show
//     of an article it created (or of a missing one), create (published or
//     not) and delete of its own;
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
// Every page of the list soak reads, during the load and after it, must
// agree with itself, since the server reads a page as one snapshot: with
// per_page P, page N and total T (meta.total), the offset is (N-1)*P and
// the page holds min(P, T-offset) rows, or none past the end; meta.from and
// meta.to are offset+1 and offset+rows, or both null on an empty page;
// meta.last_page is max(1, ceil(T/P)); links.first and links.last point at
// pages 1 and last_page, links.prev at N-1 (null on page 1), links.next at
// N+1 (null from last_page on). A page that does not is a disagreement;
// there must be none. After the load soak reads the last two pages and the
// one after them with per_page 1, 7, 15 and 100.
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
// # Crash mode
//
// With -crash, soak starts `server serve` itself, with its own environment
// (DATABASE_URL, JWT_SECRET, …) and ADDR set to the host and port of -url
// when -url is given, else to a free port of 127.0.0.1 chosen once, so that
// every restart listens on the same address. The users must exist already
// (server users add) and the JWT secret must outlive a restart, which the
// server's generated one does. -duration, -warmup and -settle do not
// apply: the kills set the length of the run.
//
// -concurrency clients then create, one create after another, REST
// articles (published) and GraphQL posts (createPost) in turn, each with a
// title of its own and, with -keys, an Idempotency-Key of its own. A create
// that ends in a transport error, a 5xx or a 409 with Retry-After (its key
// still held by the attempt a killed server was serving, until the key's
// lease ends) is sent again, with the same key and the same body, after a
// backoff (20 ms doubling up to 1 s, jittered), across restarts, until
// another answer below 500 comes back (for at most two minutes).
// Meanwhile soak waits -kill-min to -kill-max (at random) after each
// start, kills the server with SIGKILL, and starts it again, -kills times;
// the clients stop -kill-min after the last start.
//
// With the server running, soak then counts what the database holds under
// the titles of the run: every page of the list (100 a page, each checked
// for agreement as above) and every post by id (post(id), 100 ids a
// request, from 1 to the highest id known and on while posts turn up:
// posts(first:) only lists the newest 50). Every create acknowledged (201,
// or createPost's post) must be stored exactly once under the id it was
// acknowledged with: a title stored twice is a duplicate, an acknowledged
// one that is missing a lost write. It reports the acknowledged writes, the
// resends, the answers replayed (Idempotent-Replayed: true), the kills and
// the time each start took to be healthy. Without keys, duplicates are
// expected (a kill between the commit and the answer makes the retry write
// again) and only reported; lost writes still fail the run. Finally it
// stops the server with SIGTERM, which must end it cleanly.
//
// Go's HTTP client may itself resend a request carrying an Idempotency-Key
// once when a kept-alive connection breaks; soak only counts its own
// resends.
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
	var res interface {
		markdown() string
		passed() bool
		verdicts() string
	}
	if cfg.crash.enabled {
		res, err = crashSoak(ctx, cfg, logf)
	} else {
		res, err = soak(ctx, cfg, logf)
	}
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
