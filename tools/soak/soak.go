package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// result is the outcome of a soak.
type result struct {
	cfg      config
	started  time.Time
	loadTime time.Duration // warm-up and measured load, as they ran
	rec      *recorder     // every client's requests, merged
	ledgers  []*ledger
	check    verification

	measured           bool // resources were read (-pid)
	idle, warm, after  resources
	afterDelay         time.Duration // from the end of the load to the after reading
	loadAvg            [2]string     // the machine's load average as the measured load began and ended
	resourceReadFailed string

	slow *slowReport // what the slow clients got; nil without them
}

// soak runs the whole soak: log in, seed the large data when slow clients
// take part, warm up, load (with the slow clients), settle, check.
func soak(ctx context.Context, cfg config, logf func(format string, args ...any)) (*result, error) {
	r, err := newRun(cfg, logf)
	if err != nil {
		return nil, err
	}
	defer r.c.closeIdle()
	totalBefore, err := listTotal(r.c)
	if err != nil {
		return nil, err
	}
	res := r.newResult()
	workers := r.workers(r.cfg.seed)
	if cfg.warmup > 0 {
		logf("warming up for %v with %d clients", cfg.warmup, cfg.concurrency)
		res.loadTime += load(ctx, workers, cfg.warmup)
		if err := r.readWarm(ctx); err != nil {
			return nil, err
		}
	}
	res.warm = r.warm
	r.measure(ctx, res, workers, cfg.slow.clients() > 0)
	res.check = verify(r.c, workers, totalBefore)
	return res, nil
}

// soakRun is what the phases of a soak share: the server, its users, the
// seeded data and the resource readings taken before the load.
type soakRun struct {
	cfg        config
	logf       func(format string, args ...any)
	c          *client
	users      []user
	large      *largeData // nil when no slow client takes part
	idle, warm resources
}

// newRun checks the server, logs in, reads the idle resources and, when
// slow clients take part, seeds the large data they ask for.
func newRun(cfg config, logf func(format string, args ...any)) (*soakRun, error) {
	var local *net.TCPAddr
	if cfg.slow.clients() > 0 || cfg.compare {
		// The slow clients dial from 127.0.0.2 on; the others keep
		// 127.0.0.1, whatever loopback address the server is on.
		local = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}
	}
	r := &soakRun{cfg: cfg, logf: logf, c: newClientAt(cfg.base, cfg.timeout, cfg.concurrency, local)}
	if a := r.c.do(request{method: http.MethodGet, path: "/healthz"}); a.err != nil || a.status != http.StatusOK {
		return nil, fmt.Errorf("the server at %s is not healthy: %s", cfg.base, a)
	}
	var err error
	if r.users, err = resolveUsers(r.c, cfg); err != nil {
		return nil, err
	}
	if r.cfg.seed == 0 {
		r.cfg.seed = uint64(time.Now().UnixNano())
	}
	if cfg.pid > 0 {
		if r.idle, err = readResources(cfg.pid); err != nil {
			return nil, err
		}
	}
	r.warm = r.idle
	if cfg.slow.clients() > 0 {
		if r.large, err = seedLarge(r.c, r.users[0], logf); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// newResult is an empty result of a phase that starts now.
func (r *soakRun) newResult() *result {
	return &result{cfg: r.cfg, started: time.Now().UTC(), rec: newRecorder(), measured: r.cfg.pid > 0, idle: r.idle}
}

// workers makes the normal clients, their random choices drawn from seed.
func (r *soakRun) workers(seed uint64) []*worker {
	big := newBodies()
	workers := make([]*worker, r.cfg.concurrency)
	for i := range workers {
		workers[i] = newWorker(i, r.c, r.users[i%len(r.users)], big, seed)
	}
	return workers
}

// readWarm lets the server settle after the warm-up and reads its warm
// resources.
func (r *soakRun) readWarm(ctx context.Context) error {
	if r.cfg.pid == 0 {
		return nil
	}
	r.c.closeIdle()
	sleep(ctx, r.cfg.settle)
	var err error
	r.warm, err = readResources(r.cfg.pid)
	return err
}

// measure runs the measured load of res with workers, and the slow
// clients beside them when slow is true, lets the server settle, reads
// its resources and merges the workers' records into res.
func (r *soakRun) measure(ctx context.Context, res *result, workers []*worker, slow bool) {
	res.loadAvg[0] = loadAverage()
	var slowDone chan *slowReport
	if slow {
		slowCtx, stopSlow := context.WithCancel(ctx)
		defer stopSlow()
		clients := newSlowClients(r.cfg, r.large)
		r.logf("loading for %v with %d clients and %d slow ones", r.cfg.duration, r.cfg.concurrency, len(clients))
		slowDone = make(chan *slowReport, 1)
		go func() { slowDone <- runSlow(slowCtx, clients) }()
		res.loadTime += load(ctx, workers, r.cfg.duration)
		stopSlow()
		res.slow = <-slowDone
	} else {
		r.logf("loading for %v with %d clients", r.cfg.duration, r.cfg.concurrency)
		res.loadTime += load(ctx, workers, r.cfg.duration)
	}
	res.loadAvg[1] = loadAverage()
	r.c.closeIdle()
	if res.measured {
		r.logf("settling for %v", r.cfg.settle)
		sleep(ctx, r.cfg.settle)
		res.afterDelay = r.cfg.settle
		var err error
		res.after, err = readResources(r.cfg.pid)
		// After the slow clients' large answers, the server may need its
		// idle release to come back within the margins; after any load, the
		// connections the clients just closed may take a moment to close
		// on the server's side too (a reading of one descriptor over the
		// margin 200 ms after the load, gone a second later).
		for err == nil && !withinMargins(res.warm, res.after, slow) && res.afterDelay < resourceWaitMax && ctx.Err() == nil {
			sleep(ctx, time.Second)
			res.afterDelay += time.Second
			res.after, err = readResources(r.cfg.pid)
		}
		if err != nil {
			res.resourceReadFailed = err.Error()
		}
	}
	r.logf("reading back every write")
	for _, w := range workers {
		res.rec.merge(w.rec)
		res.ledgers = append(res.ledgers, &w.led)
	}
}

// resolveUsers logs in with every credential and reads the user id of
// every token.
func resolveUsers(c *client, cfg config) ([]user, error) {
	tokens := append([]string(nil), cfg.tokens...)
	for _, cred := range cfg.logins {
		token, err := c.login(cred)
		if err != nil {
			return nil, err
		}
		tokens = append(tokens, token)
	}
	users := make([]user, len(tokens))
	for i, token := range tokens {
		id, err := tokenSubject(token)
		if err != nil {
			return nil, err
		}
		users[i] = user{id: id, token: token}
	}
	return users, nil
}

// listTotal returns the number of published articles.
func listTotal(c *client) (int64, error) {
	a := c.do(request{method: http.MethodGet, path: "/api/articles?per_page=1"})
	var page listPage
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &page) != nil {
		return 0, fmt.Errorf("reading the number of articles: %s", a)
	}
	return page.Meta.Total, nil
}

// load runs every worker for d, or until ctx ends, and returns how long it
// ran. A request under way when the time is up is finished.
func load(ctx context.Context, workers []*worker, d time.Duration) time.Duration {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				o := pick(w.rng)
				o.run(w, o)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
