package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// memory reads VmHWM and VmRSS of a process, in KiB.
func memory(pid int) (hwm, rss int64, err error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(value)
		if len(fields) != 2 || fields[1] != "kB" {
			continue
		}
		n, _ := strconv.ParseInt(fields[0], 10, 64)
		switch key {
		case "VmHWM":
			hwm = n
		case "VmRSS":
			rss = n
		}
	}
	if err := sc.Err(); err != nil || hwm == 0 || rss == 0 {
		return 0, 0, fmt.Errorf("no VmHWM and VmRSS in /proc/%d/status (%v)", pid, err)
	}
	return hwm, rss, nil
}

// resetPeak asks the kernel to start VmHWM again from the current VmRSS.
func resetPeak(pid int) bool {
	return os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0) == nil
}

// mib formats KiB as MiB.
func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// measure runs a load against the server and prints the server's memory.
func measure(ctx context.Context, c *client, o options, kind string, stdout io.Writer) error {
	if o.pid <= 0 {
		return fmt.Errorf("-pid is needed to read the server's memory")
	}
	_, before, err := memory(o.pid)
	if err != nil {
		return err
	}
	reset := resetPeak(o.pid)
	start := time.Now()
	out := load(ctx, c, o, kind)
	took := time.Since(start)
	hwm, after, err := memory(o.pid)
	if err != nil {
		return err
	}
	since := "since the load began"
	if !reset {
		since = "since the server started"
	}
	fmt.Fprintf(stdout, "%s: %d×%d requests in %.1fs; %s\n", kind, o.rounds, o.concurrency, took.Seconds(), out)
	fmt.Fprintf(stdout, "%s: VmRSS %s before, peak (VmHWM, %s) %s, %s right after\n", kind, mib(before), since, mib(hwm), mib(after))
	for status, start := range out.example {
		fmt.Fprintf(stdout, "%s: an answer %s begins %.120q\n", kind, status, start)
	}
	if o.idle > 0 {
		time.Sleep(o.idle)
		_, idle, err := memory(o.pid)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: VmRSS %s after %s idle\n", kind, mib(idle), o.idle)
	}
	return nil
}
