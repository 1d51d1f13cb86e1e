package main

import (
	"context"
	"encoding/json"
	"fmt"
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
	resourceReadFailed string
}

// soak runs the whole soak: log in, load, settle, check.
func soak(ctx context.Context, cfg config, logf func(format string, args ...any)) (*result, error) {
	c := newClient(cfg.base, cfg.timeout, cfg.concurrency)
	defer c.closeIdle()
	if a := c.do(request{method: http.MethodGet, path: "/healthz"}); a.err != nil || a.status != http.StatusOK {
		return nil, fmt.Errorf("the server at %s is not healthy: %s", cfg.base, a)
	}
	users, err := resolveUsers(c, cfg)
	if err != nil {
		return nil, err
	}
	totalBefore, err := listTotal(c)
	if err != nil {
		return nil, err
	}

	seed := cfg.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	cfg.seed = seed
	res := &result{cfg: cfg, started: time.Now().UTC(), rec: newRecorder(), measured: cfg.pid > 0}
	if res.measured {
		if res.idle, err = readResources(cfg.pid); err != nil {
			return nil, err
		}
	}

	big := newBodies()
	workers := make([]*worker, cfg.concurrency)
	for i := range workers {
		workers[i] = newWorker(i, c, users[i%len(users)], big, seed)
	}

	if cfg.warmup > 0 {
		logf("warming up for %v with %d clients", cfg.warmup, cfg.concurrency)
		res.loadTime += load(ctx, workers, cfg.warmup)
	}
	res.warm = res.idle
	if res.measured && cfg.warmup > 0 {
		c.closeIdle()
		sleep(ctx, cfg.settle)
		if res.warm, err = readResources(cfg.pid); err != nil {
			return nil, err
		}
	}
	logf("loading for %v with %d clients", cfg.duration, cfg.concurrency)
	res.loadTime += load(ctx, workers, cfg.duration)
	c.closeIdle()
	if res.measured {
		logf("settling for %v", cfg.settle)
		sleep(ctx, cfg.settle)
		if res.after, err = readResources(cfg.pid); err != nil {
			res.resourceReadFailed = err.Error()
		}
	}

	logf("reading back every write")
	for _, w := range workers {
		res.rec.merge(w.rec)
		res.ledgers = append(res.ledgers, &w.led)
	}
	res.check = verify(c, workers, totalBefore)
	return res, nil
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
