package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"
)

// Bounds of the flags: soak is a bounded test, not a daemon.
const (
	maxDuration    = time.Hour
	maxConcurrency = 256
	maxTimeout     = time.Minute
	maxSlowClients = 64 // of each kind: -nonreaders, -slowreaders
	minTrickle     = 256
	maxTrickle     = 64 << 10
)

// credentials are an e-mail address and password to log in with.
type credentials struct {
	email, password string
}

// config is the parsed command line.
type config struct {
	base        string // the server's URL, without a trailing slash
	duration    time.Duration
	warmup      time.Duration
	settle      time.Duration
	concurrency int
	logins      []credentials
	tokens      []string
	pid         int
	timeout     time.Duration
	seed        uint64
	label       string

	slow    slowConfig // -nonreaders, -slowreaders, -trickle
	compare bool       // -compare: the load without, then with, the slow clients

	crash crashConfig // -crash: soak runs the server itself and kills it
}

// slowConfig is the slow and non-reading clients mixed into the load.
type slowConfig struct {
	nonReaders  int // -nonreaders
	slowReaders int // -slowreaders
	trickle     int // -trickle: bytes per second the slow readers take
}

// clients is the number of slow and non-reading clients.
func (s slowConfig) clients() int { return s.nonReaders + s.slowReaders }

// crashConfig is the configuration of the crash mode.
type crashConfig struct {
	enabled   bool
	server    string   // -server: the server's binary
	env       []string // the server's environment, without ADDR
	dir       string   // the server's working directory; "" is soak's
	addr      string   // ADDR of the server: the host and port of -url, or a free port
	kills     int      // -kills
	killMin   time.Duration
	killMax   time.Duration
	keys      bool   // -keys: send an Idempotency-Key with every create
	serverLog string // -server-log: where the server's standard error goes ("": a file removed at the end)
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "the server, on a loopback address")
	duration := fs.Duration("duration", 60*time.Second, "how long the measured load runs")
	warmup := fs.Duration("warmup", 5*time.Second, "load before the resource baseline is read")
	settle := fs.Duration("settle", 5*time.Second, "pause after each load phase before resources are read")
	concurrency := fs.Int("concurrency", 8, "clients sending requests one after another")
	users := fs.String("users", "", "email:password pairs, comma-separated, to log in with")
	tokens := fs.String("tokens", "", "bearer tokens, comma-separated")
	pid := fs.Int("pid", 0, "the server's process id, to read its resources (0: skip)")
	timeout := fs.Duration("timeout", 10*time.Second, "bound of one request")
	seed := fs.Uint64("seed", 0, "seed of the random choices (0: from the clock)")
	label := fs.String("label", "", "the title of the summary")
	nonReaders := fs.Int("nonreaders", 0, "clients that send requests with large answers and never read them")
	slowReaders := fs.Int("slowreaders", 0, "clients that read large and ordinary answers at the -trickle rate")
	trickle := fs.Int("trickle", 4096, "bytes per second a slow reader takes")
	compare := fs.Bool("compare", false, "run the load twice, without and then with the slow clients, and compare")
	crash := crashFlags(fs)
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	cfg := config{
		duration: *duration, warmup: *warmup, settle: *settle,
		concurrency: *concurrency, pid: *pid, timeout: *timeout, seed: *seed, label: *label,
		slow: slowConfig{nonReaders: *nonReaders, slowReaders: *slowReaders, trickle: *trickle}, compare: *compare,
	}
	var problems []string
	base, err := loopbackURL(*rawURL)
	if err != nil {
		problems = append(problems, err.Error())
	}
	cfg.base = base
	if cfg.duration < time.Second || cfg.duration > maxDuration {
		problems = append(problems, fmt.Sprintf("-duration must be between 1s and %v", maxDuration))
	}
	if cfg.warmup < 0 || cfg.warmup > maxDuration {
		problems = append(problems, fmt.Sprintf("-warmup must be between 0 and %v", maxDuration))
	}
	if cfg.settle < 0 || cfg.settle > 10*time.Minute {
		problems = append(problems, "-settle must be between 0 and 10m")
	}
	if cfg.concurrency < 1 || cfg.concurrency > maxConcurrency {
		problems = append(problems, fmt.Sprintf("-concurrency must be between 1 and %d", maxConcurrency))
	}
	if cfg.timeout < 100*time.Millisecond || cfg.timeout > maxTimeout {
		problems = append(problems, fmt.Sprintf("-timeout must be between 100ms and %v", maxTimeout))
	}
	if cfg.pid < 0 {
		problems = append(problems, "-pid must be a process id")
	}
	for _, pair := range splitList(*users) {
		email, password, ok := strings.Cut(pair, ":")
		if !ok || email == "" || password == "" {
			problems = append(problems, fmt.Sprintf("-users: %q is not email:password", pair))
			continue
		}
		cfg.logins = append(cfg.logins, credentials{email: email, password: password})
	}
	cfg.tokens = splitList(*tokens)
	if len(cfg.logins)+len(cfg.tokens) == 0 {
		problems = append(problems, "give at least one user with -users or -tokens")
	}
	if cfg.crash, err = crash.config(fs, cfg); err != nil {
		problems = append(problems, err.Error())
	}
	problems = append(problems, cfg.checkSlow()...)
	if len(problems) > 0 {
		return config{}, errors.New(strings.Join(problems, "; "))
	}
	return cfg, nil
}

// checkSlow checks the flags of the slow clients and of -compare.
func (cfg *config) checkSlow() []string {
	var problems []string
	s := cfg.slow
	if s.nonReaders < 0 || s.nonReaders > maxSlowClients || s.slowReaders < 0 || s.slowReaders > maxSlowClients {
		problems = append(problems, fmt.Sprintf("-nonreaders and -slowreaders must be between 0 and %d", maxSlowClients))
	}
	if s.trickle < minTrickle || s.trickle > maxTrickle {
		problems = append(problems, fmt.Sprintf("-trickle must be between %d and %d bytes per second", minTrickle, maxTrickle))
	}
	if s.clients() > 0 || cfg.compare {
		// Every slow client dials from an address of its own, 127.0.0.2
		// on, and the others from 127.0.0.1: the server must be on IPv4
		// loopback.
		if u, err := url.Parse(cfg.base); err == nil {
			if ip := net.ParseIP(u.Hostname()); ip == nil || ip.To4() == nil || !ip.IsLoopback() {
				problems = append(problems, fmt.Sprintf("-nonreaders, -slowreaders and -compare need -url on an IPv4 loopback address such as http://127.0.0.1:8080, not %q", cfg.base))
			}
		}
	}
	if cfg.crash.enabled && (s.clients() > 0 || cfg.compare) {
		problems = append(problems, "-nonreaders, -slowreaders and -compare do not go with -crash")
	}
	return problems
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var items []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}

// loopbackURL checks that raw is an http URL of a loopback host (an IP
// literal such as 127.0.0.1 or ::1, or localhost) and returns it without a
// trailing slash. The dialer checks the address again when it connects.
func loopbackURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("-url %q: want http://host:port of the server", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); !(host == "localhost" || ip != nil && ip.IsLoopback()) {
		return "", fmt.Errorf("-url %q: soak only targets loopback addresses (127.0.0.0/8, ::1, localhost)", raw)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}
