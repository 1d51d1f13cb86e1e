package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// crashTotals are the sums over every create of a crash run.
type crashTotals struct {
	creates, posts           int
	acked, ackedPosts        int
	retried, retries         int // creates sent more than once, and the extra attempts
	transport, status5xx     int // attempts that ended so
	inUse                    int // attempts answered 409: the key was held
	replays                  int // acknowledgements with Idempotent-Replayed: true
	afresh                   int // retried creates acknowledged without a replay
	other, internal, unended int // answers that are no acknowledgement; creates given up
	samples                  []string
}

func (res *crashResult) totals() crashTotals {
	var t crashTotals
	for _, k := range res.creates {
		t.creates++
		t.retries += k.retries()
		t.transport += k.transport
		t.status5xx += k.status5xx
		t.inUse += k.inUse
		if k.post {
			t.posts++
		}
		if k.retries() > 0 {
			t.retried++
		}
		switch {
		case k.acked:
			t.acked++
			if k.post {
				t.ackedPosts++
			}
			if k.replayed {
				t.replays++
			} else if k.retries() > 0 {
				t.afresh++
			}
		case k.gaveUp:
			t.unended++
			t.samples = append(t.samples, fmt.Sprintf("%q: no answer below 500 in %d attempts", k.title, k.attempts))
		default:
			t.other++
			if k.internal {
				t.internal++
			}
			t.samples = append(t.samples, fmt.Sprintf("%q: %s", k.title, k.other))
		}
	}
	return t
}

// verdicts names the checks that failed.
func (res *crashResult) verdicts() string {
	t, cnt, p := res.totals(), &res.count, res.proc
	var failed []string
	check := func(bad bool, name string) {
		if bad {
			failed = append(failed, name)
		}
	}
	check(p.kills < res.cfg.crash.kills, "kills")
	check(p.ownExits > 0, "server exits")
	check(cnt.failed != "", "count")
	check(cnt.lost > 0, "lost writes")
	check(res.cfg.crash.keys && cnt.duplicates > 0, "duplicates")
	check(cnt.idMismatch > 0 || cnt.strays > 0, "acknowledged ids")
	check(t.other > 0 || t.unended > 0, "unanswered or unexpected creates")
	check(!res.cfg.crash.keys && t.replays > 0, "replays without keys")
	check(cnt.pages.disagreements > 0, "page consistency")
	check(res.stopErr != "", "clean stop")
	if len(failed) == 0 {
		return "PASS"
	}
	return "FAIL (" + strings.Join(failed, ", ") + ")"
}

func (res *crashResult) passed() bool { return res.verdicts() == "PASS" }

// markdown is the summary of a crash run: one table of the checks.
func (res *crashResult) markdown() string {
	t, cnt, p, cc := res.totals(), &res.count, res.proc, res.cfg.crash
	var b strings.Builder
	keys := "each with its own Idempotency-Key"
	if !cc.keys {
		keys = "without Idempotency-Key"
	}
	label := res.cfg.label
	if label == "" {
		label = res.cfg.base
	}
	fmt.Fprintf(&b, "### Crash soak: %s\n\n", label)
	fmt.Fprintf(&b, "%s, %v of creates (REST articles and GraphQL posts in turn, %s) by %d clients against a server "+
		"soak started on %s, killed with SIGKILL %v to %v after each start and started again; seed %d.\n\n",
		res.started.Format("2006-01-02 15:04 UTC"), res.loadTime.Round(100*time.Millisecond), keys,
		res.cfg.concurrency, cc.addr, cc.killMin, cc.killMax, res.cfg.seed)
	row := func(name, format string, args ...any) {
		fmt.Fprintf(&b, "| %s | %s |\n", name, fmt.Sprintf(format, args...))
	}
	b.WriteString("| check | result |\n|---|---|\n")
	row("kills", "%d SIGKILLs, %d starts (exec to healthy p50 / max: %s / %s), %d exits not caused by soak",
		p.kills, len(p.starts), ms(percentile(sortedDurations(p.starts), 0.5)), ms(slices.Max(p.starts)), p.ownExits)
	row("creates", "%s: %s articles, %s posts", count(t.creates), count(t.creates-t.posts), count(t.posts))
	row("acknowledged writes", "%s: %s articles (201), %s posts", count(t.acked), count(t.acked-t.ackedPosts), count(t.ackedPosts))
	row("retries", "%s resends of %s creates, after %s transport errors, %s 5xx and %s 409 (key held)", count(t.retries), count(t.retried),
		count(t.transport), count(t.status5xx), count(t.inUse))
	row("replays seen", "%s (`Idempotent-Replayed: true`); %s retried creates acknowledged without a replay",
		count(t.replays), count(t.afresh))
	row("duplicates", "%s (titles stored more than once: %s)%s", count(cnt.duplicates), count(cnt.duplicated), informative(!cc.keys))
	row("lost writes", "%s (acknowledged, not stored)", count(cnt.lost))
	row("acknowledged id differs", "%s; %s titles nobody sent", count(cnt.idMismatch), count(cnt.strays))
	row("unanswered or unexpected", "%s with no answer below 500 within %v; %s other answers (%s INTERNAL_SERVER_ERROR); %s of them stored",
		count(t.unended), retryBudget, count(t.other), count(t.internal), count(cnt.storedUnacked))
	row("counted", "%s articles on the list's pages, %s post ids read", count(cnt.articlesSeen), count(cnt.postsProbed))
	row("page consistency", "%s", cnt.pages.summary())
	row("server log", "%s lines, %s at error level; %s", count(res.log.lines), count(res.log.errors), res.stopSummary())
	row("result", "**%s**", res.verdicts())
	res.writeSamples(&b, t)
	return b.String()
}

func informative(yes bool) string {
	if yes {
		return " (informative: no keys)"
	}
	return ""
}

func (res *crashResult) stopSummary() string {
	if res.stopErr != "" {
		return res.stopErr
	}
	return "it stopped cleanly on SIGTERM at the end"
}

// writeSamples lists the first problems found, if any.
func (res *crashResult) writeSamples(b *strings.Builder, t crashTotals) {
	var samples []string
	if res.count.failed != "" {
		samples = append(samples, "count: "+res.count.failed)
	}
	samples = append(samples, t.samples...)
	samples = append(samples, res.count.problems...)
	samples = append(samples, res.count.pages.samples...)
	samples = append(samples, res.proc.ownExitNote...)
	for _, s := range res.log.samples {
		samples = append(samples, "server log, at error level: "+s)
	}
	if res.log.err != "" {
		samples = append(samples, "server log: "+res.log.err)
	}
	if len(samples) == 0 {
		return
	}
	if res.cfg.crash.keys {
		b.WriteString("\nFirst problems found:\n\n")
	} else {
		b.WriteString("\nFirst problems found (duplicates are informative without keys):\n\n")
	}
	for _, s := range samples[:min(len(samples), 2*maxSamples)] {
		fmt.Fprintf(b, "- %s\n", strings.ReplaceAll(s, "\n", " "))
	}
}

func sortedDurations(ds []time.Duration) []time.Duration {
	return slices.Sorted(slices.Values(ds))
}
