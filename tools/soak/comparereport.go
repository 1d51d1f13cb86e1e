package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// markdown is the summary of a comparison: the checks of both phases side
// by side, the normal clients' operations side by side, and what the slow
// clients got.
func (cmp *comparison) markdown() string {
	var b strings.Builder
	label := cmp.cfg.label
	if label == "" {
		label = cmp.cfg.base
	}
	s := cmp.cfg.slow
	fmt.Fprintf(&b, "### Soak: %s, without and with slow clients\n\n", label)
	fmt.Fprintf(&b, "%s, against %s, seed %d: large data seeded (%d posts answering 39.6 KB each, %d articles of %s bytes, "+
		"%s small articles around them), a warm-up of %v, then the same load of %d clients for %v twice: without, then "+
		"with %d clients that never read (large answers) and %d that read at %s bytes/s (large and ordinary answers), "+
		"each from an address of its own (127.0.0.2 on; the others 127.0.0.1). Between the phases the first phase's "+
		"writes were read back and deleted (%s deletes, %d failed).\n\n",
		cmp.started.Format("2006-01-02 15:04 UTC"), cmp.cfg.base, cmp.cfg.seed, largePosts, largeArticles,
		count(largeArticleBody), count(fillersAbove+fillersBelow), cmp.cfg.warmup, cmp.cfg.concurrency, cmp.cfg.duration,
		s.nonReaders, s.slowReaders, count(s.trickle), count(cmp.cleanUp.deleted), cmp.cleanUp.failed)

	without, with := cmp.without.rows(), cmp.with.rows()
	b.WriteString("| check (normal clients) | without slow clients | with slow clients |\n|---|---|---|\n")
	for i, row := range without {
		other := "–"
		if i < len(with) && with[i].name == row.name {
			other = with[i].value
		}
		if row.name == "result" {
			lines, _ := cmp.p99Checks()
			fmt.Fprintf(&b, "| p99 with ≤ max(1.5 × without, without + 20 ms) | | %s |\n", strings.Join(lines, "; "))
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", row.name, row.value, other)
	}
	fmt.Fprintf(&b, "| **comparison** | | **%s** |\n", cmp.verdicts())

	b.WriteString("\n| operation | requests/s without | with | errors without | with | p50 without | with | p99 without | with |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, o := range operations {
		a, w := cmp.without.rec.ops[o.name], cmp.with.rec.ops[o.name]
		if a == nil && w == nil {
			continue
		}
		ra, ea, la := opFigures(a, cmp.without.loadTime)
		rw, ew, lw := opFigures(w, cmp.with.loadTime)
		p99 := ms(percentile(lw, 0.99))
		if len(la) > 0 && len(lw) > 0 && percentile(lw, 0.99) > p99Bound(percentile(la, 0.99)) {
			p99 += " (over)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", o.name, ra, rw, ea, ew,
			ms(percentile(la, 0.5)), ms(percentile(lw, 0.5)), ms(percentile(la, 0.99)), p99)
	}
	if cmp.with.slow != nil {
		b.WriteString("\nWhat the slow clients got (each request on a connection of its own, sent again as soon as " +
			"the server let go of the last, a second later after a Retry-After):\n\n")
		b.WriteString(cmp.with.slow.markdown(s.trickle))
	}
	samples := slices.Concat(cmp.without.samples(), cmp.with.samples(), cmp.cleanUp.failures)
	writeSamples(&b, samples)
	return b.String()
}

// opFigures are an operation's rate over d, its error rate and its sorted
// latencies.
func opFigures(s *opStats, d time.Duration) (rate, errors string, latencies []time.Duration) {
	if s == nil {
		return "–", "–", nil
	}
	n := 0
	for _, k := range s.statuses {
		n += k
	}
	return fmt.Sprintf("%.1f", float64(n)/d.Seconds()), errorRate(s.unexpected, n), slices.Sorted(slices.Values(s.latencies))
}
