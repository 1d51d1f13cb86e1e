package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// totals are the sums over every operation.
type totals struct {
	requests, hostile, internal, unexpected, transport int
	statuses                                           map[int]int
}

func (r *result) totals() totals {
	t := totals{statuses: map[int]int{}}
	for _, s := range r.rec.ops {
		for status, n := range s.statuses {
			t.requests += n
			if s.op.hostile {
				t.hostile += n
			}
			if status == 0 {
				t.transport += n
			} else {
				t.statuses[status] += n
			}
		}
		t.internal += s.internal
		t.unexpected += s.unexpected
	}
	return t
}

// latencies returns the latencies of the operations that keep accepts.
func (r *result) latencies(keep func(*operation) bool) []time.Duration {
	var all []time.Duration
	for _, s := range r.rec.ops {
		if keep(s.op) {
			all = append(all, s.latencies...)
		}
	}
	slices.Sort(all)
	return all
}

// percentile returns the q-quantile of sorted latencies or sizes (nearest
// rank).
func percentile[T time.Duration | int64](sorted []T, q float64) T {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
}

func p50p99(sorted []time.Duration) string {
	return ms(percentile(sorted, 0.50)) + " / " + ms(percentile(sorted, 0.99))
}

// count writes n with commas between groups of three digits, as 12,345.
func count[T int | int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func mib(kib int64) string { return strconv.FormatFloat(float64(kib)/1024, 'f', 1, 64) }

// resourcesOK reports whether the readings after the load are near the
// warm ones (true when they were not taken).
func (r *result) resourcesOK() bool {
	return !r.measured || r.resourceReadFailed == "" && withinMargins(r.warm, r.after, r.slow != nil)
}

// verdicts names the checks that failed.
func (r *result) verdicts() string {
	t := r.totals()
	var failed []string
	if t.internal > 0 || r.check.internal > 0 {
		failed = append(failed, "5xx answers")
	}
	if t.unexpected > 0 || r.check.failed > 0 {
		failed = append(failed, "unexpected answers")
	}
	if r.check.lost() > 0 {
		failed = append(failed, "lost writes")
	}
	if r.check.duplicates() > 0 {
		failed = append(failed, "duplicates")
	}
	if !r.check.totalOK() {
		failed = append(failed, "list total")
	}
	if r.pageDisagreements() > 0 {
		failed = append(failed, "page consistency")
	}
	if !r.resourcesOK() {
		failed = append(failed, "resources")
	}
	if r.slow != nil && r.slow.held() > 0 {
		failed = append(failed, "slow requests held past "+slowHold.String())
	}
	if len(failed) == 0 {
		return "PASS"
	}
	return "FAIL (" + strings.Join(failed, ", ") + ")"
}

// pageDisagreements is the number of pages of the list, read during the
// load or at its end, that disagreed with themselves.
func (r *result) pageDisagreements() int {
	return r.rec.pages.disagreements + r.check.pages.disagreements
}

// passed reports whether every check passed.
func (r *result) passed() bool { return r.verdicts() == "PASS" }

// latencyGroups are the groups of operations whose latencies the
// summary gives, by name.
var latencyGroups = []struct {
	name string
	keep func(*operation) bool
}{
	{"all", func(*operation) bool { return true }},
	{"valid reads", func(o *operation) bool { return !o.hostile && !o.write }},
	{"writes", func(o *operation) bool { return o.write }},
	{"hostile", func(o *operation) bool { return o.hostile }},
}

// reportRow is one row of the table of checks.
type reportRow struct{ name, value string }

// rows are the rows of the table of checks.
func (r *result) rows() []reportRow {
	t := r.totals()
	v := &r.check
	var rows []reportRow
	row := func(name, value string) { rows = append(rows, reportRow{name, value}) }
	rate := float64(t.requests) / r.loadTime.Seconds()
	row("requests", fmt.Sprintf("%s in %.1f s (%s/s): %s valid, %s hostile",
		count(t.requests), r.loadTime.Seconds(), count(int(rate)), count(t.requests-t.hostile), count(t.hostile)))
	var statuses []string
	for _, status := range slices.Sorted(maps.Keys(t.statuses)) {
		statuses = append(statuses, fmt.Sprintf("%d: %s", status, count(t.statuses[status])))
	}
	row("by status", strings.Join(statuses, ", "))
	row("transport errors", count(t.transport))
	row("5xx and INTERNAL_SERVER_ERROR", count(t.internal+v.internal))
	row("unexpected answers", count(t.unexpected+v.failed))
	row("error rate (unexpected answers of the load)", errorRate(t.unexpected, t.requests))
	for _, g := range latencyGroups {
		row("latency p50 / p99, "+g.name, p50p99(r.latencies(g.keep)))
	}

	var created, deleted, postsCreated, postsDeleted, uncertain int
	for _, l := range r.ledgers {
		created += len(l.createdArticles)
		deleted += len(l.deletedArticles)
		postsCreated += len(l.createdPosts)
		postsDeleted += len(l.deletedPosts)
		uncertain += l.uncertainArticles + l.uncertainPosts
	}
	row("writes acknowledged", fmt.Sprintf("articles %s created, %s deleted; posts %s created, %s deleted",
		count(created), count(deleted), count(postsCreated), count(postsDeleted)))
	row("writes of unknown outcome", count(uncertain))
	row("lost writes", fmt.Sprintf("%s (%s creates missing, %s deletes undone; %s writes read back)",
		count(v.lost()), count(v.lostCreates), count(v.lostDeletes), count(v.readBack)))
	row("duplicates", fmt.Sprintf("%s (%s ids handed out twice, %s rows listed twice)",
		count(v.duplicates()), count(v.duplicateIDs), count(v.listDuplicates)))
	totalVerdict := "matches"
	if !v.totalOK() {
		totalVerdict = "MISMATCH"
	}
	row("list total", fmt.Sprintf("%s: %s before + %s live published by the soak; %s listed, %s missing from the list",
		totalVerdict, count(v.totalBefore), count(v.livePublished), count(v.listed), count(v.listMissing)))
	row("page consistency", fmt.Sprintf("%s: under load %s; after it %s",
		count(r.pageDisagreements()), r.rec.pages.summary(), v.pages.summary()))
	switch {
	case !r.measured:
		row("resources", "not measured (no -pid)")
	case r.resourceReadFailed != "":
		row("resources", "not read after the load: "+r.resourceReadFailed)
	default:
		row("RSS idle / warm / after", fmt.Sprintf("%s / %s / %s MiB (limit %s; after: read %v after the load)",
			mib(r.idle.rssKiB), mib(r.warm.rssKiB), mib(r.after.rssKiB), mib(rssLimitKiB(r.warm, r.slow != nil)), r.afterDelay))
		row("threads idle / warm / after", fmt.Sprintf("%d / %d / %d (limit %d)",
			r.idle.threads, r.warm.threads, r.after.threads, r.warm.threads+threadsMargin))
		row("open fds idle / warm / after", fmt.Sprintf("%d / %d / %d (limit %d)",
			r.idle.fds, r.warm.fds, r.after.fds, r.warm.fds+fdsMargin))
	}
	row("machine load (1-minute average) as the load began / ended", r.loadAvg[0]+" / "+r.loadAvg[1])
	row("result", "**"+r.verdicts()+"**")
	return rows
}

// errorRate writes n of total as a percentage.
func errorRate(n, total int) string {
	if total == 0 {
		return "–"
	}
	return strconv.FormatFloat(100*float64(n)/float64(total), 'f', 3, 64) + " %"
}

// markdown is the summary: one table of the checks, one of the
// operations, and one of the slow clients when they took part.
func (r *result) markdown() string {
	var b strings.Builder
	label := r.cfg.label
	if label == "" {
		label = r.cfg.base
	}
	fmt.Fprintf(&b, "### Soak: %s\n\n", label)
	fmt.Fprintf(&b, "%s, %v of load (warm-up %v, then %v) with %d clients against %s, seed %d.\n\n",
		r.started.Format("2006-01-02 15:04 UTC"), r.loadTime.Round(100*time.Millisecond), r.cfg.warmup, r.cfg.duration,
		r.cfg.concurrency, r.cfg.base, r.cfg.seed)
	b.WriteString("| check | result |\n|---|---|\n")
	for _, row := range r.rows() {
		fmt.Fprintf(&b, "| %s | %s |\n", row.name, row.value)
	}
	b.WriteString("\n| operation | requests | statuses | p50 | p99 |\n|---|---:|---|---:|---:|\n")
	for _, o := range operations {
		s := r.rec.ops[o.name]
		if s == nil {
			continue
		}
		n := 0
		var parts []string
		for _, status := range slices.Sorted(maps.Keys(s.statuses)) {
			n += s.statuses[status]
			name := strconv.Itoa(status)
			if status == 0 {
				name = "transport error"
			}
			parts = append(parts, fmt.Sprintf("%s: %s", name, count(s.statuses[status])))
		}
		lat := slices.Sorted(slices.Values(s.latencies))
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", o.name, count(n), strings.Join(parts, ", "),
			ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99)))
	}
	if r.slow != nil {
		b.WriteString("\n" + r.slow.markdown(r.cfg.slow.trickle))
	}
	writeSamples(&b, r.samples())
	return b.String()
}

// samples are the first problems the phase found.
func (r *result) samples() []string {
	samples := append(slices.Clone(r.rec.samples), r.check.problems...)
	return append(append(samples, r.rec.pages.samples...), r.check.pages.samples...)
}

// writeSamples lists the problems found, if any.
func writeSamples(b *strings.Builder, samples []string) {
	if len(samples) > 0 {
		b.WriteString("\nFirst problems found:\n\n")
		for _, s := range samples {
			fmt.Fprintf(b, "- %s\n", strings.ReplaceAll(s, "\n", " "))
		}
	}
}
