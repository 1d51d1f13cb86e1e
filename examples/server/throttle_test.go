package main

// Login throttling through the real binary: the counts
// are shared by the processes on one database, an account has a limit of
// its own across client addresses, correct logins are never refused
// because others are in flight, and a flood of unique e-mail addresses
// leaves the memory where it was.

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The account the throttle tests guess at.
const (
	adaEmail    = "ada@example.com"
	adaPassword = "correct horse"
)

// tooMany matches the body of a throttled login.
var tooMany = regexp.MustCompile(`^\{"message":"Too many login attempts\. Please try again in (\d+) seconds\."\}$`)

// loginThrough logs in at base through client (a fresh one when nil) and
// returns the answer.
func loginThrough(t *testing.T, client *http.Client, base, email, password string) response {
	t.Helper()
	r, err := tryLogin(client, base, email, password)
	if err != nil {
		t.Fatalf("login as %s: %v", email, err)
	}
	return r
}

// tryLogin is loginThrough returning the transport error, for goroutines.
func tryLogin(client *http.Client, base, email, password string) (response, error) {
	if client == nil {
		client = &http.Client{Timeout: commandTimeout}
	}
	body := fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)
	resp, err := client.Post(base+"/api/auth/login", "application/json", strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, nil
}

// retryAfter returns the seconds of a 429 answer, after checking that its
// body and Retry-After agree and lie within lo..hi; it returns -1 for any
// other answer.
func retryAfter(t *testing.T, r response, lo, hi int) int {
	t.Helper()
	m := tooMany.FindStringSubmatch(r.body)
	if r.status != http.StatusTooManyRequests || m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	if got := r.header.Get("Retry-After"); got != m[1] || n < lo || n > hi {
		t.Errorf("429 %s with Retry-After %q; want the same number of seconds, within %d..%d", r.body, got, lo, hi)
	}
	return n
}

// checkTooMany checks that r is a 429 whose wait lies within lo..hi
// seconds.
func checkTooMany(t *testing.T, what string, r response, lo, hi int) {
	t.Helper()
	if retryAfter(t, r, lo, hi) < 0 {
		t.Errorf("%s: %d %s; want 429 Too many login attempts", what, r.status, r.body)
	}
}

// checkInvalid checks that r is the 401 of a wrong password.
func checkInvalid(t *testing.T, what string, r response) {
	t.Helper()
	if r.status != http.StatusUnauthorized || r.body != invalidCredentials {
		t.Errorf("%s: %d %s; want 401 %s", what, r.status, r.body, invalidCredentials)
	}
}

// checkToken checks that r is a login's 200 with a token.
func checkToken(t *testing.T, what string, r response) {
	t.Helper()
	if r.status != http.StatusOK || !strings.Contains(r.body, `"access_token":"`) {
		t.Errorf("%s: %d %s; want 200 with a token", what, r.status, r.body)
	}
}

// addAda adds the user Ada, whose password is adaPassword, and Bob.
func addAda(t *testing.T, db testDatabase, env ...string) {
	t.Helper()
	for _, name := range []string{"Ada", "Bob"} {
		args := []string{"users", "add", "--name", name, "--email", strings.ToLower(name) + "@example.com", "--password", adaPassword}
		if res := db.run(t, db.env(env...), args...); res.code != 0 {
			t.Fatalf("users add %s: exit status %d\n%s", name, res.code, res.stderr)
		}
	}
}

// TestLoginThrottleAcrossProcesses: two servers on one database count the
// failures of a pair together. Five wrong guesses spread over both, and
// the sixth attempt is a 429 from either one, even with the right
// password; another account is not affected.
func TestLoginThrottleAcrossProcesses(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			serverBinary(t)
			addAda(t, db)
			procs := []*process{db.launch(t), db.launch(t)}
			for _, p := range procs {
				p.waitListening(t)
			}
			for i := range 5 {
				checkInvalid(t, fmt.Sprintf("failure %d on server %d", i+1, i%2), loginThrough(t, nil, procs[i%2].base, adaEmail, "wrong"))
			}
			for i, p := range procs {
				checkTooMany(t, fmt.Sprintf("a guess on server %d", i), loginThrough(t, nil, p.base, adaEmail, "wrong"), 50, 60)
				checkTooMany(t, fmt.Sprintf("the right password on server %d", i), loginThrough(t, nil, p.base, "ADA@example.com", adaPassword), 50, 60)
			}
			checkToken(t, "Bob", loginThrough(t, nil, procs[1].base, "bob@example.com", adaPassword))
		})
	}
}

// loopbackClient returns a client whose connections come from ip, a
// loopback address (Linux routes all of 127.0.0.0/8 to lo). The test is
// skipped where the system does not let a socket bind to it.
func loopbackClient(t *testing.T, ip string) *http.Client {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: commandTimeout}
	probe, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.ParseIP(ip)})
	if err != nil {
		t.Skipf("cannot bind to %s: %v", ip, err)
	}
	probe.Close()
	transport := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(transport.CloseIdleConnections)
	return &http.Client{Transport: transport, Timeout: commandTimeout}
}

// TestLoginThrottlePerAccount: twenty client addresses guessing one
// account five times each get twenty guesses in all, the account's limit,
// not a hundred; then every address is refused, a new one and the right
// password included, for the rest of the account's window (15 minutes),
// while another account logs in.
func TestLoginThrottlePerAccount(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			serverBinary(t)
			addAda(t, db)
			p := db.start(t)
			const addresses, guesses, accountLimit = 20, 5, 20
			clients := make([]*http.Client, addresses)
			for i := range clients {
				clients[i] = loopbackClient(t, fmt.Sprintf("127.0.0.%d", i+2))
			}
			var statuses []int
			for round := range guesses {
				for i, c := range clients {
					r := loginThrough(t, c, p.base, adaEmail, fmt.Sprintf("wrong %d", round))
					statuses = append(statuses, r.status)
					if t.Failed() {
						continue // the count below tells the rest
					}
					switch n := len(statuses); {
					case n <= accountLimit:
						checkInvalid(t, fmt.Sprintf("guess %d, from 127.0.0.%d", n, i+2), r)
					default:
						checkTooMany(t, fmt.Sprintf("guess %d, from 127.0.0.%d", n, i+2), r, 14*60, 15*60)
					}
				}
			}
			count := map[int]int{}
			for _, s := range statuses {
				count[s]++
			}
			if want := map[int]int{401: accountLimit, 429: addresses*guesses - accountLimit}; fmt.Sprint(count) != fmt.Sprint(want) {
				t.Errorf("%d guesses from %d addresses: %v; want %v", addresses*guesses, addresses, count, want)
			}
			fresh := loopbackClient(t, "127.0.0.99")
			checkTooMany(t, "the right password from a new address", loginThrough(t, fresh, p.base, adaEmail, adaPassword), 14*60, 15*60)
			checkToken(t, "Bob from the same address", loginThrough(t, fresh, p.base, "bob@example.com", adaPassword))
		})
	}
}

// TestLoginSimultaneous: logins sent at once are never refused because
// others are in flight. Eight correct logins of one account are all 200,
// and so are eight more sent together with four wrong guesses (fewer
// than the pair's limit of five), which get their 401. The checks are
// bcrypt at cost 10, so that the logins overlap.
func TestLoginSimultaneous(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			serverBinary(t)
			const cost = "BCRYPT_ROUNDS=10"
			addAda(t, db, cost)
			p := db.start(t, cost)
			for _, wrong := range []int{0, 4} {
				const correct = 8
				passwords := make([]string, 0, correct+wrong)
				for range correct {
					passwords = append(passwords, adaPassword)
				}
				for i := range wrong {
					passwords = append(passwords, fmt.Sprintf("wrong %d", i))
				}
				answers := make([]response, len(passwords))
				errs := make([]error, len(passwords))
				var ready, wg sync.WaitGroup
				start := make(chan struct{})
				for i, password := range passwords {
					ready.Add(1)
					wg.Go(func() {
						// A connection of its own, open before the start,
						// so that the logins arrive together.
						transport := &http.Transport{}
						defer transport.CloseIdleConnections()
						c := &http.Client{Transport: transport, Timeout: commandTimeout}
						if resp, err := c.Get(p.base + "/healthz"); err == nil {
							_, _ = io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
						ready.Done()
						<-start
						answers[i], errs[i] = tryLogin(c, p.base, adaEmail, password)
					})
				}
				ready.Wait()
				close(start)
				wg.Wait()
				for i, r := range answers {
					what := fmt.Sprintf("%d correct and %d wrong at once: login %d (%s)", correct, wrong, i, passwords[i])
					switch {
					case errs[i] != nil:
						t.Errorf("%s: %v", what, errs[i])
					case passwords[i] == adaPassword:
						checkToken(t, what, r)
					default:
						checkInvalid(t, what, r)
					}
				}
			}
		})
	}
}

// rss returns the resident set size of process pid in bytes, read from
// /proc.
func rss(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// floodLogins sends logins of unique e-mail addresses, each 255
// characters of four bytes (the longest the login takes), from workers
// goroutines until stop is closed, each on a connection of its own that
// is closed as soon as the request is written: the client never waits
// for an answer. It returns how many it sent.
func floodLogins(addr string, workers int, stop <-chan struct{}) int {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		sent int
	)
	fill := strings.Repeat("𝔸", 255-len("@x.example")-12)
	for w := range workers {
		wg.Go(func() {
			n := 0
			defer func() { mu.Lock(); sent += n; mu.Unlock() }()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"email":"%03d%09d%s@x.example","password":"guess"}`, w, i, fill)
				req := fmt.Sprintf("POST /api/auth/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
				conn, err := net.DialTimeout("tcp", addr, time.Second)
				if err != nil {
					continue
				}
				if _, err := io.WriteString(conn, req); err == nil {
					n++
				}
				conn.Close()
			}
		})
	}
	wg.Wait()
	return sent
}

// memoryLog matches the line of the runtime's GC trace for the collection
// that giving memory back forces, and holds the live heap it left, in MB.
var memoryLog = regexp.MustCompile(`^gc \d+ @.*, \d+->\d+->(\d+) MB, .*\(forced\)$`)

// releases follows p's log for the lines that say it gave memory back and
// for the live heap the GC trace reports at each forced collection, reading
// each line once: a flood leaves tens of thousands of lines, and scanning
// them all again at every new one (under the race detector, on two cores)
// kept the log reader from draining the server's standard error, which
// then blocked the server's handlers on their log lines.
type releases struct {
	p      *process
	next   int // the index of the first line not read yet
	n      int // the lines read that say memory was given back
	heapMB int // the live heap of the last forced collection read
}

// poll reads the lines that came since the last call and returns a
// channel closed at the next one.
func (r *releases) poll() <-chan struct{} {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	for ; r.next < len(r.p.lines); r.next++ {
		l := r.p.lines[r.next]
		if strings.HasPrefix(l.raw, "gc ") {
			if m := memoryLog.FindStringSubmatch(l.raw); m != nil {
				r.heapMB, _ = strconv.Atoi(m[1])
			}
		}
		if l.message() == "idle: memory given back" {
			r.n++
		}
	}
	return r.p.changed
}

// footprint is what a server holds once idle: its resident set, read from
// /proc, and its live heap, from the runtime's GC trace.
type footprint struct {
	rss, heap int64 // bytes
}

func (f footprint) String() string {
	return fmt.Sprintf("resident %.1f MiB, live heap %d MB", float64(f.rss)/(1<<20), f.heap/1e6)
}

// settled waits until p, started with GODEBUG=gctrace=1, has given its
// free memory back once more than r has seen, then sends it one request
// and waits until it has given memory back once more, and returns what it
// holds then. The second collection frees what the first left in the
// caches of sync.Pool (connection buffers, for one).
func settled(t *testing.T, r *releases) footprint {
	t.Helper()
	deadline := time.After(commandTimeout)
	for range 2 {
		before := r.n
		for changed := r.poll(); r.n == before; changed = r.poll() {
			select {
			case <-changed:
			case <-deadline:
				t.Fatalf("the server did not give memory back within %v; its log:\n%s", commandTimeout, r.p.log())
			}
		}
		send(t, http.MethodGet, r.p.base+"/healthz", "")
	}
	r.poll()
	return footprint{rss: rss(t, r.p.cmd.Process.Pid), heap: int64(r.heapMB) * 1e6}
}

// floodSettled floods p's login for d and returns what p holds once idle.
func floodSettled(t *testing.T, r *releases, d time.Duration) (int, footprint) {
	t.Helper()
	r.poll()
	stop := make(chan struct{})
	time.AfterFunc(d, func() { close(stop) })
	sent := floodLogins(r.p.addr, 8, stop)
	return sent, settled(t, r)
}

// heapReadingError is the most two gctrace readings of the same live heap
// can differ by: the trace prints whole megabytes, truncated.
const heapReadingError int64 = 1_000_000

// TestLoginFloodMemory floods the login with unique e-mail addresses from
// clients that never wait for the answer, as fast as this machine sends
// them, with bcrypt at cost 10 so that the logins queue for the one bcrypt
// slot of two cores. After a first flood of a second, which takes the
// memory that serving a flood needs at all (code, pools, caches), a flood
// of four seconds (20,000 to 30,000 logins here) leaves the live heap,
// once the server is idle, where it was: at most 200 bytes more per login
// sent. Before, every attempt was counted when it arrived, ahead of its
// turn to check the password, and kept an entry of over a kilobyte for a
// minute: the same flood left 14 to 16 MB more live heap (some 800 bytes a
// login) and 22 to 31 MiB more resident (and the 60 s, 522 MB).
// The resident set, which moves with the machine's load (connection
// buffers, goroutine stacks, what the runtime keeps), is held to a bound
// far below that only.
func TestLoginFloodMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("floods the login for 5 s")
	}
	db := sqliteDatabase(t)
	serverBinary(t)
	const cost = "BCRYPT_ROUNDS=10"
	addAda(t, db, cost)
	p := db.start(t, cost, "MEMORY_IDLE_RELEASE=500ms", "GODEBUG=gctrace=1")
	checkToken(t, "Ada before the flood", loginThrough(t, nil, p.base, adaEmail, adaPassword))
	r := &releases{p: p}
	warm, before := floodSettled(t, r, time.Second)
	sent, after := floodSettled(t, r, 4*time.Second)
	t.Logf("after a flood of %d logins: %v; after %d more: %v", warm, before, sent, after)
	// The GC trace gives the live heap in whole megabytes, cut down: two
	// readings of one heap can differ by up to 1 MB, so the bound allows
	// that reading error on top of the 200 bytes a login.
	if grown, most := after.heap-before.heap, max(int64(sent)*200, 2e6)+heapReadingError; grown > most {
		t.Errorf("the flood of %d logins left %.1f MB more live heap; want at most %.1f (200 bytes a login, and %d MB of reading error)",
			sent, float64(grown)/1e6, float64(most)/1e6, heapReadingError/1_000_000)
	}
	if grown := after.rss - before.rss; grown > 48<<20 {
		t.Errorf("the flood of %d logins left %.1f MiB more resident; want at most 48", sent, float64(grown)/(1<<20))
	}
	checkToken(t, "Ada after the flood", loginThrough(t, nil, p.base, adaEmail, adaPassword))
}
