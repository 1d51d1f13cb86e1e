package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// slowTally is what the slow requests of one kind got.
type slowTally struct {
	clients  int
	ends     [slowEnds]int
	statuses map[int]int // 0: no status line
	cutAfter []time.Duration
	// gotCut and gotWhole are the body bytes received of the answers cut
	// off, and of the whole ones.
	gotCut, gotWhole []int64
	lengths          []int64 // Content-Length of the answers cut off
	failures         []string
}

func (t *slowTally) add(out slowOutcome) {
	t.ends[out.end]++
	if out.end == endStopped {
		return
	}
	if t.statuses == nil {
		t.statuses = map[int]int{}
	}
	if out.end != endFailed {
		t.statuses[out.status]++
	}
	switch out.end {
	case endCut:
		t.cutAfter = append(t.cutAfter, out.after)
		t.gotCut = append(t.gotCut, out.got)
		t.lengths = append(t.lengths, out.length)
	case endWhole:
		t.gotWhole = append(t.gotWhole, out.got)
	case endFailed:
		if len(t.failures) < 3 {
			t.failures = append(t.failures, out.err)
		}
	}
}

func (t *slowTally) merge(other *slowTally) {
	for i, n := range other.ends {
		t.ends[i] += n
	}
	for status, n := range other.statuses {
		if t.statuses == nil {
			t.statuses = map[int]int{}
		}
		t.statuses[status] += n
	}
	t.cutAfter = append(t.cutAfter, other.cutAfter...)
	t.gotCut = append(t.gotCut, other.gotCut...)
	t.gotWhole = append(t.gotWhole, other.gotWhole...)
	t.lengths = append(t.lengths, other.lengths...)
	for _, f := range other.failures {
		if len(t.failures) < 3 {
			t.failures = append(t.failures, f)
		}
	}
}

// requests is the number of requests counted: all but those the end of
// the load stopped.
func (t *slowTally) requests() int {
	n := 0
	for end, k := range t.ends {
		if slowEnd(end) != endStopped {
			n += k
		}
	}
	return n
}

// slowReport is what every slow client got, by kind.
type slowReport struct {
	kinds [slowKinds]slowTally
}

// held is the number of requests the server still held after slowHold.
func (r *slowReport) held() int {
	n := 0
	for i := range r.kinds {
		n += r.kinds[i].ends[endHeld]
	}
	return n
}

// statusList writes statuses as "200: 3, 503: 1".
func statusList(statuses map[int]int) string {
	var parts []string
	for _, status := range slices.Sorted(maps.Keys(statuses)) {
		name := strconv.Itoa(status)
		if status == 0 {
			name = "none"
		}
		parts = append(parts, name+": "+count(statuses[status]))
	}
	return strings.Join(parts, ", ")
}

// markdown is the table of what the slow clients got, one row a kind.
func (r *slowReport) markdown(trickle int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| slow client (trickle: %s bytes/s) | clients | requests | statuses | whole answers | "+
		"cut off by the server | cut off after p50 / max | body bytes received before the cut p50 / max (of) | "+
		"held past %v | failed |\n", count(trickle), slowHold)
	b.WriteString("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n")
	for kind := range slowKinds {
		t := &r.kinds[kind]
		if t.clients == 0 {
			continue
		}
		cutAfter := "–"
		if len(t.cutAfter) > 0 {
			sorted := slices.Sorted(slices.Values(t.cutAfter))
			cutAfter = seconds(percentile(sorted, 0.5)) + " / " + seconds(sorted[len(sorted)-1])
		}
		got := "–"
		if len(t.gotCut) > 0 {
			sorted := slices.Sorted(slices.Values(t.gotCut))
			got = count(percentile(sorted, 0.5)) + " / " + count(sorted[len(sorted)-1]) + " (" + lengthsOf(t.lengths) + ")"
		}
		failed := count(t.ends[endFailed])
		if len(t.failures) > 0 {
			failed += ": " + strings.Join(t.failures, "; ")
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", slowKind(kind), t.clients,
			count(t.requests()), statusList(t.statuses), count(t.ends[endWhole]), count(t.ends[endCut]), cutAfter, got,
			count(t.ends[endHeld]), failed)
	}
	return b.String()
}

// seconds writes d in seconds with two decimals.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

// lengthsOf describes the lengths of the answers: one number when they
// are all the same, else the least and the most.
func lengthsOf(lengths []int64) string {
	if len(lengths) == 0 {
		return "–"
	}
	sorted := slices.Sorted(slices.Values(lengths))
	describe := func(n int64) string {
		if n < 0 {
			return "unknown"
		}
		return count(n)
	}
	if sorted[0] == sorted[len(sorted)-1] {
		return "of " + describe(sorted[0])
	}
	return "of " + describe(sorted[0]) + " to " + describe(sorted[len(sorted)-1])
}
