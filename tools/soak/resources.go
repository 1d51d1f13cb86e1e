package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// resources are the readings of the server process that can be taken from
// outside. The server has no pprof endpoint, so goroutines cannot be
// counted: threads and open file descriptors (each connection holds one)
// stand in for them.
type resources struct {
	rssKiB  int64 // VmRSS
	threads int   // Threads
	fds     int   // entries of /proc/<pid>/fd
}

// readResources reads /proc/<pid>/status and /proc/<pid>/fd.
func readResources(pid int) (resources, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	f, err := os.Open(dir + "/status")
	if err != nil {
		return resources{}, fmt.Errorf("reading the server's resources: %w", err)
	}
	defer f.Close()
	var r resources
	var haveRSS, haveThreads bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(value)
		switch {
		case key == "VmRSS" && len(fields) == 2 && fields[1] == "kB":
			r.rssKiB, err = strconv.ParseInt(fields[0], 10, 64)
			haveRSS = err == nil
		case key == "Threads" && len(fields) == 1:
			r.threads, err = strconv.Atoi(fields[0])
			haveThreads = err == nil
		}
	}
	if err := sc.Err(); err != nil {
		return resources{}, fmt.Errorf("reading %s/status: %w", dir, err)
	}
	if !haveRSS || !haveThreads {
		return resources{}, fmt.Errorf("%s/status has no VmRSS or Threads line", dir)
	}
	fds, err := os.ReadDir(dir + "/fd")
	if err != nil {
		return resources{}, fmt.Errorf("reading the server's descriptors: %w", err)
	}
	r.fds = len(fds)
	return r, nil
}

// Margins within which the readings after the load must stay above the
// warm ones.
const (
	rssMarginFraction = 0.5      // of the warm RSS …
	rssMarginMinKiB   = 32 << 10 // … but at least 32 MiB
	// rssSlowMarginMinKiB is the least margin after a load with slow
	// clients: one response budget (64 MiB). Their answers of 10 to 12 MB
	// take the server to about 300 MB at its peak; once they are gone and
	// the server has given its free heap back, its live heap is 1 to 4 MB
	// but it keeps 30 to 40 MB more than warm resident (about half in the
	// heap's address range, half in other anonymous memory), the same
	// after three such loads in a row on one server (SQLite): retained,
	// not leaked.
	rssSlowMarginMinKiB = 64 << 10
	threadsMargin       = 4
	fdsMargin           = 4
)

// resourceWaitMax bounds how long after the load soak waits for the
// readings to come back within the margins: the Go runtime gives memory
// back to the system slowly, and the example server gives back its free
// heap once it has been idle for MEMORY_IDLE_RELEASE (30 s), which matters
// after the large answers of the slow clients.
const resourceWaitMax = 45 * time.Second

// rssLimitKiB is the highest RSS accepted after the load, with slow
// clients in it or not.
func rssLimitKiB(warm resources, slow bool) int64 {
	least := int64(rssMarginMinKiB)
	if slow {
		least = rssSlowMarginMinKiB
	}
	return warm.rssKiB + max(int64(float64(warm.rssKiB)*rssMarginFraction), least)
}

// withinMargins reports whether after is near warm.
func withinMargins(warm, after resources, slow bool) bool {
	return after.rssKiB <= rssLimitKiB(warm, slow) &&
		after.threads <= warm.threads+threadsMargin &&
		after.fds <= warm.fds+fdsMargin
}

// loadAverage is the machine's load average over the last minute, from
// /proc/loadavg, or "?" where it cannot be read: on a machine shared
// with other work, it tells whether the latencies were measured alone.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(b)); err == nil && len(fields) > 0 {
		return fields[0]
	}
	return "?"
}
