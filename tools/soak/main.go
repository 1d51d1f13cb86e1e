// Command soak puts a running example server (examples/server) under a mixed
// load for a bounded time, then checks that nothing was lost, duplicated or
// leaked, and prints a summary in Markdown. In crash mode (-crash, see
// below) it runs the server itself and kills it again and again under
// creates retried with an Idempotency-Key.
//
// In its default mode it starts nothing itself. Build and start the server,
// add users, then:
//
//	go run ./tools/soak -url http://127.0.0.1:8080 \
//		-users ada@example.com:secret,bob@example.com:secret -pid "$SERVER_PID"
//
// run.sh, next to this file, does all of that on a fresh SQLite database and,
// when TEST_DATABASE_URL is set, on a fresh PostgreSQL schema.
//
// # Flags
//
//	-url          the server, on a loopback address only (http://127.0.0.1:8080)
//	-duration     how long the measured load runs (60s; at most 1h; each
//	              phase's with -compare)
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
//	-nonreaders   clients that ask for large answers and never read them
//	              (0; at most 64; see Slow clients)
//	-slowreaders  clients that read their answers at -trickle (0; at most
//	              64)
//	-trickle      bytes a second a slow reader takes (4096; 256 to 65536)
//	-compare      run the load twice, without and then with the slow
//	              clients, and compare (see Comparison)
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
// descriptors. After a load with slow clients, whose large answers take
// the server to a few hundred MB, RSS may stay up to max(50% of warm,
// 64 MiB) above warm, and when the readings are not within the margins
// after the settle period, soak reads them again every second, for up to
// 45 s after the load: Go gives memory back to the system slowly, and the
// example server gives back its free heap once idle for
// MEMORY_IDLE_RELEASE (30 s). The summary says when the after readings
// were taken. In a comparison, each phase has its own after readings,
// against the same warm ones. The summary also gives the machine's
// 1-minute load average (/proc/loadavg) as the measured load began and
// ended: on a machine shared with other work, it tells whether the
// latencies were measured alone (the soak and the server keep two cores
// busy by themselves).
//
// # Slow clients
//
// -nonreaders and -slowreaders mix clients into the load that take their
// answers slowly or never. Each dials from a loopback address of its own,
// 127.0.0.2 on, so that the server counts it as another client for its
// per-client limits; the other clients then dial from 127.0.0.1, and -url
// must be an IPv4 loopback address. Each sends one request at a time on a
// connection of its own (HTTP/1.1, Connection: close) and starts again as
// soon as the server lets go of it (a second later after an answer with
// Retry-After):
//
//   - non-readers (half of them GraphQL, half the list): the large GraphQL
//     query (249 aliases of post(id) { body } over the large posts, about
//     9.9 MB) or a page of 100 large articles (about 12 MB), never read;
//   - slow readers (a third each): the same two requests, and small ones
//     (the list's first page of 15, ten posts with their authors), read at
//     -trickle bytes a second.
//
// A client that never reads cannot see the server close the connection:
// the end comes after the data it does not take. So, while it waits for a
// large answer, it sends a byte every 100 ms, which the server does not
// read; once the server has closed the connection, its system answers
// with a reset, the next byte cannot be sent, and that is when the server
// let go (within 100 ms). The client then reads what its socket holds, at
// once. The reset discards what the server had written that the client's
// socket had not yet taken, so the bytes a non-reader received are what
// its socket took before it stopped reading: about 128 KiB here.
//
// The summary adds a table of what the slow clients got: statuses, whole
// answers, answers the server cut off and when (from the request sent),
// the bytes received of those, and requests the server still held after
// a minute (a failed check). Requests under way when the load ends are
// closed and not counted.
//
// The slow clients need large data. Before the warm-up soak writes, as
// the first user: 500 small published articles, 300 of 120,000 bytes (a
// page of 100 stays under the API's 16 MiB bound on a page), 500 small
// ones, and 50 posts whose 19,800-backslash bodies (the GraphQL request is
// capped at 20,000 bytes) answer 39.6 KB each. The list is newest first,
// and the other clients read its first five pages and its last two: the
// small articles around the large ones keep the large ones off those
// pages, so only the slow clients ask for them (a slow client reads the
// list's total first, to find a page of 100 inside them). The checks
// after the load read every page, the large ones included; soak reads
// answers of up to 20 MiB.
//
// # Comparison
//
// -compare seeds the large data, warms up, and runs the load of
// -concurrency clients for -duration twice, with the same -seed (the
// same choices in the same order): first without the slow clients, then
// with them. After the first phase its writes are read back (all checks
// apply) and deleted, so that the second starts from the same data. The
// warm-up's clients draw other choices, and their writes are read back
// with the first phase's. The summary puts both phases' checks side by
// side, then each operation's rate, error rate (unexpected answers, which
// include every 5xx and transport error) and p50 and p99 latency, then
// the slow clients' table. The comparison passes when both phases pass
// every check (no 5xx, no unexpected answer, nothing lost, …) and the p99
// latency of the normal clients' requests with the slow clients (all of
// them, the valid reads, the writes) is at most max(1.5 × p99 without,
// p99 without + 20 ms). The bound leaves room for the CPU the slow
// clients' large answers take on a small shared machine and for the noise
// of two runs; a client that waited on what a slow client holds would wait
// a budget wait (10 s) or a stall timeout (5 s). Per operation, a p99 over
// that bound is marked, not failed: a few thousand samples make a noisy
// p99. With -nonreaders 0 -slowreaders 0, -compare runs the same load twice
// and shows the noise.
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
	switch {
	case cfg.crash.enabled:
		res, err = crashSoak(ctx, cfg, logf)
	case cfg.compare:
		res, err = compareSoak(ctx, cfg, logf)
	default:
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
