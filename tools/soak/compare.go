package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// warmupSalt makes the warm-up's random choices differ from the measured
// load's, which both phases of a comparison share.
const warmupSalt = 0x5eed_0f_3a2b

// comparison is the outcome of -compare: the same load, without and then
// with the slow clients.
type comparison struct {
	cfg           config
	started       time.Time
	without, with *result
	cleanUp       cleanUp // the first phase's writes, deleted before the second
}

// compareSoak seeds the large data, warms up, runs the load without the
// slow clients, reads its writes back and deletes them, so that the
// second phase starts from the same data, then runs the same load (the
// same seed, the same duration) with the slow clients and reads its
// writes back.
func compareSoak(ctx context.Context, cfg config, logf func(format string, args ...any)) (*comparison, error) {
	r, err := newRun(cfg, logf)
	if err != nil {
		return nil, err
	}
	defer r.c.closeIdle()
	cmp := &comparison{cfg: r.cfg, started: time.Now().UTC()}
	totalBefore, err := listTotal(r.c)
	if err != nil {
		return nil, err
	}
	warm := r.workers(r.cfg.seed ^ warmupSalt)
	if cfg.warmup > 0 {
		logf("warming up for %v with %d clients", cfg.warmup, cfg.concurrency)
		load(ctx, warm, cfg.warmup)
		if err := r.readWarm(ctx); err != nil {
			return nil, err
		}
	}

	logf("phase 1 of 2: without the slow clients")
	cmp.without = r.newResult()
	cmp.without.warm = r.warm
	workers := r.workers(r.cfg.seed)
	r.measure(ctx, cmp.without, workers, false)
	written := slices.Concat(warm, workers)
	cmp.without.check = verify(r.c, written, totalBefore)
	logf("deleting what phase 1 wrote")
	cmp.cleanUp = deleteWrites(r.c, written)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	logf("phase 2 of 2: with %d slow clients", cfg.slow.clients())
	if totalBefore, err = listTotal(r.c); err != nil {
		return nil, err
	}
	cmp.with = r.newResult()
	cmp.with.warm = r.warm
	workers = r.workers(r.cfg.seed)
	r.measure(ctx, cmp.with, workers, cfg.slow.clients() > 0)
	cmp.with.check = verify(r.c, workers, totalBefore)
	return cmp, nil
}

// cleanUp counts the deletes of a phase's writes.
type cleanUp struct {
	deleted, failed int
	failures        []string
}

// deleteWrites deletes the published articles and the posts the workers
// left (verify already deleted their drafts), each worker's by its user.
func deleteWrites(c *client, workers []*worker) cleanUp {
	var (
		mu  sync.Mutex
		cu  cleanUp
		wg  sync.WaitGroup
		del = func(req request, what string) {
			a := c.do(req)
			mu.Lock()
			defer mu.Unlock()
			if a.err == nil && (a.status == http.StatusNoContent || a.status == http.StatusOK) {
				cu.deleted++
				return
			}
			cu.failed++
			if len(cu.failures) < 3 {
				cu.failures = append(cu.failures, what+": "+a.String())
			}
		}
	)
	for _, w := range workers {
		wg.Go(func() {
			for _, a := range w.led.liveArticles {
				if a.published {
					path := "/api/articles/" + strconv.FormatInt(a.id, 10)
					del(request{method: http.MethodDelete, path: path, token: w.user.token}, "DELETE "+path)
				}
			}
			for _, p := range w.led.livePosts {
				del(graphql(`mutation ($id: ID!) { deletePost(id: $id) { id } }`, map[string]any{"id": p.id}, w.user.token),
					"deletePost "+p.id)
			}
		})
	}
	wg.Wait()
	return cu
}

// p99Bound is the highest p99 latency the normal clients may have with
// the slow clients beside them, given their p99 without: half as much
// again, or 20 ms more, whichever is larger. The slow clients' large
// answers take the server's CPU (building and writing ~10 MB answers,
// reading 12 MB pages) on a machine of two cores shared with other work,
// and two runs of the same load here differ by several milliseconds in
// p99 already; what the bound catches is a client that waits on what a
// slow client holds, which costs the budget wait (10 s) or a stall
// timeout (5 s), hundreds of times the bound.
func p99Bound(without time.Duration) time.Duration {
	return max(without*3/2, without+20*time.Millisecond)
}

// boundedGroups are the latency groups whose p99 the comparison bounds.
var boundedGroups = []string{"all", "valid reads", "writes"}

// p99Checks compares the p99 of each bounded group. It returns one line
// a group, and whether every group is within its bound.
func (cmp *comparison) p99Checks() ([]string, bool) {
	var lines []string
	ok := true
	for _, g := range latencyGroups {
		if !slices.Contains(boundedGroups, g.name) {
			continue
		}
		without := percentile(cmp.without.latencies(g.keep), 0.99)
		with := percentile(cmp.with.latencies(g.keep), 0.99)
		bound := p99Bound(without)
		verdict := "within"
		if with > bound {
			verdict, ok = "OVER", false
		}
		lines = append(lines, fmt.Sprintf("%s: %s → %s, %s the bound %s", g.name, ms(without), ms(with), verdict, ms(bound)))
	}
	return lines, ok
}

// verdicts names the checks that failed, in either phase or between them.
func (cmp *comparison) verdicts() string {
	var failed []string
	if v := cmp.without.verdicts(); v != "PASS" {
		failed = append(failed, "without the slow clients: "+v)
	}
	if v := cmp.with.verdicts(); v != "PASS" {
		failed = append(failed, "with the slow clients: "+v)
	}
	if _, ok := cmp.p99Checks(); !ok {
		failed = append(failed, "p99 over its bound with the slow clients")
	}
	if cmp.cleanUp.failed > 0 {
		failed = append(failed, "deleting the first phase's writes")
	}
	if len(failed) == 0 {
		return "PASS"
	}
	return "FAIL (" + strings.Join(failed, "; ") + ")"
}

// passed reports whether every check passed.
func (cmp *comparison) passed() bool { return cmp.verdicts() == "PASS" }
