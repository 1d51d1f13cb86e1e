package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bounds of the server's starts and stops in crash mode.
const (
	startTimeout = 30 * time.Second // from exec to a healthy /healthz
	stopTimeout  = 30 * time.Second // from SIGTERM to exit
)

// serverProcess is the example server, run by soak in crash mode: started,
// killed with SIGKILL and started again, always on the same address.
type serverProcess struct {
	path   string
	dir    string
	env    []string // with ADDR
	log    *os.File // its standard output and error, every start appended
	health *client

	cmd     *exec.Cmd
	exited  chan struct{} // closed once cmd has been waited for
	waitErr error

	starts      []time.Duration // from exec to healthy, for each start
	kills       int
	ownExits    int      // exits soak did not cause
	ownExitNote []string // how they ended
}

func newServerProcess(cc crashConfig, base string, log *os.File) *serverProcess {
	env := append(withoutVar(cc.env, "ADDR"), "ADDR="+cc.addr)
	return &serverProcess{path: cc.server, dir: cc.dir, env: env, log: log, health: newClient(base, time.Second, 1)}
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			kept = append(kept, kv)
		}
	}
	return kept
}

// start runs `server serve` and waits until its health check answers 200.
func (s *serverProcess) start(ctx context.Context) error {
	cmd := exec.Command(s.path, "serve")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.dir, s.env, s.log, s.log
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	go func(exited chan struct{}) {
		s.waitErr = cmd.Wait()
		close(exited)
	}(s.exited)
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		a := s.health.do(request{method: http.MethodGet, path: "/healthz"})
		if a.err == nil && a.status == http.StatusOK {
			s.starts = append(s.starts, time.Since(begin))
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("the server exited while starting (%v); see its log, %s", s.waitErr, s.log.Name())
		case <-time.After(25 * time.Millisecond):
		}
	}
	s.kill()
	return fmt.Errorf("the server was not healthy within %v; see its log, %s", startTimeout, s.log.Name())
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *serverProcess) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
	s.health.closeIdle()
}

// crash kills the server with SIGKILL and counts it.
func (s *serverProcess) crash() {
	s.kill()
	s.kills++
}

// stop sends SIGTERM and waits for a clean exit; it kills the server when
// it does not stop in time. It is a no-op when the server is not running.
func (s *serverProcess) stop() error {
	if s.cmd == nil {
		return nil
	}
	select {
	case <-s.exited:
		return nil
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(stopTimeout):
		s.kill()
		return fmt.Errorf("the server did not stop within %v of SIGTERM", stopTimeout)
	}
	if s.waitErr != nil {
		return fmt.Errorf("the server stopped on SIGTERM with %v", s.waitErr)
	}
	return nil
}

// wait waits for d, until ctx ends, or until the server exits by itself,
// which it counts and reports as false: soak then starts it again.
func (s *serverProcess) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-s.exited:
		s.ownExits++
		s.ownExitNote = append(s.ownExitNote, fmt.Sprint(s.waitErr))
		return false
	}
	return true
}

// freeLoopbackAddr returns 127.0.0.1 with a port that is free now: the
// server listens on it at every start, so that its clients find it again.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if port == 0 {
		return "", errors.New("no free port on 127.0.0.1")
	}
	return "127.0.0.1:" + strconv.Itoa(port), nil
}
