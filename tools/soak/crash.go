package main

import (
	"context"
	cryptorand "crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// crashFlagValues are the flags of the crash mode, before they are checked.
type crashFlagValues struct {
	enabled          *bool
	server           *string
	kills            *int
	killMin, killMax *time.Duration
	keys             *bool
	serverLog        *string
}

func crashFlags(fs *flag.FlagSet) *crashFlagValues {
	return &crashFlagValues{
		enabled:   fs.Bool("crash", false, "run the server (-server) and kill it with SIGKILL under keyed creates"),
		server:    fs.String("server", "", "crash mode: the example server's binary"),
		kills:     fs.Int("kills", 10, "crash mode: how many times the server is killed"),
		killMin:   fs.Duration("kill-min", time.Second, "crash mode: least time from a start to the next kill"),
		killMax:   fs.Duration("kill-max", 3*time.Second, "crash mode: most time from a start to the next kill"),
		keys:      fs.Bool("keys", true, "crash mode: send an Idempotency-Key with every create"),
		serverLog: fs.String("server-log", "", "crash mode: append the server's output to this file"),
	}
}

// config checks the crash flags. The server's address is the host and port
// of -url when it is given, else a free loopback port chosen at the start.
func (f *crashFlagValues) config(fs *flag.FlagSet, cfg config) (crashConfig, error) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	cc := crashConfig{enabled: *f.enabled, server: *f.server, kills: *f.kills, killMin: *f.killMin,
		killMax: *f.killMax, keys: *f.keys, serverLog: *f.serverLog, env: os.Environ()}
	if !cc.enabled {
		for _, name := range []string{"server", "kills", "kill-min", "kill-max", "keys", "server-log"} {
			if set[name] {
				return crashConfig{}, fmt.Errorf("-%s needs -crash", name)
			}
		}
		return cc, nil
	}
	var problems []string
	if info, err := os.Stat(cc.server); cc.server == "" || err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
		problems = append(problems, "-crash needs -server, the path of the example server's binary")
	}
	if cfg.pid != 0 {
		problems = append(problems, "-pid does not go with -crash: soak starts the server itself")
	}
	if cc.kills < 1 || cc.kills > 1000 {
		problems = append(problems, "-kills must be between 1 and 1000")
	}
	if cc.killMin < 100*time.Millisecond || cc.killMax < cc.killMin || cc.killMax > time.Minute {
		problems = append(problems, "-kill-min and -kill-max must be 100ms ≤ min ≤ max ≤ 1m")
	}
	if set["url"] {
		host := strings.TrimPrefix(cfg.base, "http://")
		if _, port, err := net.SplitHostPort(host); err != nil || port == "" || port == "0" {
			problems = append(problems, "-url must name a port in crash mode")
		}
		cc.addr = host
	}
	if len(problems) > 0 {
		return crashConfig{}, errors.New(strings.Join(problems, "; "))
	}
	return cc, nil
}

// retryBudget bounds the time a client spends on one create: a create
// still without an answer below 500 after it is unresolved.
const retryBudget = 2 * time.Minute

// crashResult is the outcome of a crash run.
type crashResult struct {
	cfg      config
	started  time.Time
	loadTime time.Duration
	run      string // tags the titles of this run
	creates  []*keyedCreate
	proc     *serverProcess
	stopErr  string // the server did not stop cleanly at the end
	count    crashCount
	log      logSummary
}

// crashSoak runs the crash mode: it starts the server, loads it with
// creates from cfg.concurrency clients while it kills and restarts it
// cfg.crash.kills times, then counts what the database holds.
func crashSoak(ctx context.Context, cfg config, logf func(format string, args ...any)) (_ *crashResult, err error) {
	if cfg.crash.addr == "" {
		addr, err := freeLoopbackAddr()
		if err != nil {
			return nil, err
		}
		cfg.crash.addr, cfg.base = addr, "http://"+addr
	}
	if cfg.seed == 0 {
		cfg.seed = uint64(time.Now().UnixNano())
	}
	logFile, removeLog, err := openServerLog(cfg.crash.serverLog)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil { // keep the server's output, which may tell why
			logFile.Close()
			logf("the server's output is in %s", logFile.Name())
			return
		}
		removeLog()
	}()
	logStart, err := logFile.Seek(0, io.SeekEnd) // the file may hold earlier runs
	if err != nil {
		return nil, err
	}
	res := &crashResult{cfg: cfg, started: time.Now().UTC(), run: randomHex(4)}
	res.proc = newServerProcess(cfg.crash, cfg.base, logFile)
	logf("starting %s on %s", cfg.crash.server, cfg.crash.addr)
	if err := res.proc.start(ctx); err != nil {
		return nil, err
	}
	defer res.proc.stop() // a no-op once stopped below

	c := newClient(cfg.base, cfg.timeout, cfg.concurrency)
	defer c.closeIdle()
	users, err := resolveUsers(c, cfg)
	if err != nil {
		return nil, err
	}
	if err := res.load(ctx, c, users, logf); err != nil {
		return nil, err
	}
	logf("counting what the database holds")
	res.count = countCreates(c, res.run, res.creates)
	if err := res.proc.stop(); err != nil {
		res.stopErr = err.Error()
	}
	res.log = summarizeLog(logFile.Name(), logStart)
	return res, nil
}

// load runs the clients while the controller kills and restarts the
// server; the clients stop once the kills are done and the server has
// been up for -kill-min again.
func (res *crashResult) load(ctx context.Context, c *client, users []user, logf func(string, ...any)) error {
	cfg := res.cfg
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	retryCtx, stopRetries := context.WithCancel(ctx) // ends the retries when the server cannot be started
	defer stopRetries()
	clients := make([]*crashClient, cfg.concurrency)
	var wg sync.WaitGroup
	for i := range clients {
		clients[i] = &crashClient{name: fmt.Sprintf("crash %s c%d", res.run, i), c: c, user: users[i%len(users)],
			keys: cfg.crash.keys, odd: i%2 == 1, rng: rand.New(rand.NewPCG(cfg.seed, uint64(i+1)))}
		wg.Go(func() { clients[i].run(loadCtx, retryCtx) })
	}
	logf("%d clients creating; killing the server %d times, %v to %v after each start",
		cfg.concurrency, cfg.crash.kills, cfg.crash.killMin, cfg.crash.killMax)
	start := time.Now()
	err := res.control(ctx, logf)
	stopLoad()
	if err != nil {
		stopRetries()
	}
	wg.Wait()
	res.loadTime = time.Since(start)
	for _, cl := range clients {
		res.creates = append(res.creates, cl.creates...)
	}
	return err
}

// control kills the server at random moments and starts it again, then
// lets it run for -kill-min before it returns.
func (res *crashResult) control(ctx context.Context, logf func(string, ...any)) error {
	cc, p := res.cfg.crash, res.proc
	rng := rand.New(rand.NewPCG(res.cfg.seed, 0))
	for p.kills < cc.kills && ctx.Err() == nil {
		d := cc.killMin + time.Duration(rng.Int64N(int64(cc.killMax-cc.killMin)+1))
		if p.wait(ctx, d) {
			if ctx.Err() != nil {
				break
			}
			p.crash()
			logf("kill %d of %d, %v after the start", p.kills, cc.kills, d.Round(time.Millisecond))
		}
		if err := p.start(ctx); err != nil {
			return err
		}
	}
	if !p.wait(ctx, cc.killMin) {
		return p.start(ctx)
	}
	return nil
}

// openServerLog opens the file the server's output is appended to: path,
// or a temporary file that remove deletes (and closes, as it closes path).
func openServerLog(path string) (f *os.File, remove func(), err error) {
	if path != "" {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
	f, err = os.CreateTemp("", "soak-server-*.log")
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close(); os.Remove(f.Name()) }, nil
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = cryptorand.Read(b)
	return hex.EncodeToString(b)
}
