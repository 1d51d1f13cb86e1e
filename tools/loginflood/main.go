// Command loginflood measures how a running example server (examples/server)
// answers /healthz while its login endpoint is flooded: clients POST
// /api/auth/login with random unknown e-mail addresses (each one a bcrypt
// comparison against the stand-in hash, and a pair the throttle has never
// seen) as fast as the server answers, while one more client GETs /healthz
// one request after the other. It first polls /healthz alone for -idle, as
// a baseline.
//
//	loginflood -url http://127.0.0.1:18080 -clients 16 -duration 10s
//
// With -fresh, every /healthz request opens a connection of its own, as
// the probes of load balancers and orchestrators do; otherwise the poller
// keeps one connection alive.
//
// It prints the mean, median, 90th and 99th percentile and maximum latency
// of /healthz, idle and under the flood, with the statuses, and the logins
// answered per second, with their latencies and statuses. It starts
// nothing itself.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }

// options are the flags.
type options struct {
	url      string
	clients  int
	duration time.Duration
	idle     time.Duration
	timeout  time.Duration
	fresh    bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o := options{url: "http://127.0.0.1:8080", clients: 16, duration: 10 * time.Second, idle: 2 * time.Second, timeout: time.Minute}
	fs := flag.NewFlagSet("loginflood", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.url, "url", o.url, "base URL of the server")
	fs.IntVar(&o.clients, "clients", o.clients, "concurrent login clients")
	fs.DurationVar(&o.duration, "duration", o.duration, "length of the flood")
	fs.DurationVar(&o.idle, "idle", o.idle, "length of the baseline without the flood (0: none)")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "bound of one request")
	fs.BoolVar(&o.fresh, "fresh", false, "a new connection for every /healthz request")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.clients < 1 || o.duration <= 0 || o.idle < 0 || o.timeout <= 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "loginflood: -clients, -duration and -timeout must be positive, -idle not negative, and there are no arguments")
		return 2
	}
	o.url = strings.TrimSuffix(o.url, "/")
	if err := flood(ctx, o, stdout); err != nil {
		fmt.Fprintln(stderr, "loginflood:", err)
		return 1
	}
	return 0
}

// tally counts answers by status ("200", "401", or the transport error).
type tally struct {
	mu sync.Mutex
	n  map[string]int
}

func (t *tally) add(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == nil {
		t.n = map[string]int{}
	}
	t.n[key]++
}

func (t *tally) total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.n {
		n += c
	}
	return n
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := make([]string, 0, len(t.n))
	for k := range t.n {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, t.n[k])
	}
	return strings.Join(parts, " ")
}

// flood runs the baseline, then the flood, and prints both.
func flood(ctx context.Context, o options, stdout io.Writer) error {
	health := &http.Client{Timeout: o.timeout, Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableKeepAlives: o.fresh}}
	logins := &http.Client{Timeout: o.timeout, Transport: &http.Transport{MaxIdleConnsPerHost: o.clients}}

	if o.idle > 0 {
		ctx, cancel := context.WithTimeout(ctx, o.idle)
		lat, statuses, err := poll(ctx, health, o.url+"/healthz")
		cancel()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "healthz idle:  %s  %s\n", summary(lat), statuses)
	}

	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var (
		answered tally
		mu       sync.Mutex
		loginLat []time.Duration
		wg       sync.WaitGroup
	)
	start := time.Now()
	for range o.clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				begin := time.Now()
				if status := login(ctx, logins, o.url+"/api/auth/login"); status != "" {
					d := time.Since(begin)
					answered.add(status)
					mu.Lock()
					loginLat = append(loginLat, d)
					mu.Unlock()
				}
			}
		})
	}
	lat, statuses, err := poll(ctx, health, o.url+"/healthz")
	wg.Wait()
	elapsed := time.Since(start)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "healthz flood: %s  %s\n", summary(lat), statuses)
	fmt.Fprintf(stdout, "logins: %d in %.1fs, %.1f/s, %d clients  %s  %s\n",
		answered.total(), elapsed.Seconds(), float64(answered.total())/elapsed.Seconds(), o.clients, summary(loginLat), &answered)
	return nil
}

// poll GETs url one request after the other until ctx ends, and returns
// the latencies of the requests that were answered.
func poll(ctx context.Context, client *http.Client, url string) ([]time.Duration, *tally, error) {
	var lat []time.Duration
	statuses := new(tally)
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, nil, err
		}
		begin := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				statuses.add(errorKind(err))
			}
			continue
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			if ctx.Err() == nil {
				statuses.add(errorKind(err))
			}
			continue
		}
		lat = append(lat, time.Since(begin))
		statuses.add(strconv.Itoa(resp.StatusCode))
	}
	return lat, statuses, nil
}

// login sends one login of a random unknown user and returns the status,
// or "" when ctx ended first.
func login(ctx context.Context, client *http.Client, url string) string {
	body := `{"email":"` + strings.ToLower(rand.Text()) + `@flood.invalid","password":"` + rand.Text() + `"}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return errorKind(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ""
		}
		return errorKind(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil && ctx.Err() != nil {
		return ""
	}
	return strconv.Itoa(resp.StatusCode)
}

// errorKind names a transport error briefly.
func errorKind(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "error(" + err.Error() + ")"
}

// summary gives the count, mean, median, p90, p99 and maximum of lat.
func summary(lat []time.Duration) string {
	if len(lat) == 0 {
		return "n=0"
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	q := func(p float64) time.Duration { return s[int(p*float64(len(s)-1))] }
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
	}
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return fmt.Sprintf("n=%d mean=%s p50=%s p90=%s p99=%s max=%s", len(s), ms(sum/time.Duration(len(s))),
		ms(q(0.5)), ms(q(0.9)), ms(q(0.99)), ms(s[len(s)-1]))
}
