package main

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

const (
	readyBody       = `{"status":"ready"}`
	notReadyBody    = `{"status":"unavailable"}`
	readyAttemptsOf = 3 // the answers after a change that must all agree
)

// checkReady sends GET /readyz a few times and checks every answer: a
// probe repeats, and each answer must hold on its own.
func checkReady(t *testing.T, base string, wantStatus int, wantBody string) {
	t.Helper()
	for range readyAttemptsOf {
		start := time.Now()
		send(t, http.MethodGet, base+"/readyz", "").check(t, wantStatus, wantBody, "Cache-Control", "no-store")
		if d := time.Since(start); d > readyTimeout+time.Second {
			t.Errorf("/readyz took %v, more than its bound %v and a second", d, readyTimeout)
		}
	}
}

// TestReadinessPostgres puts a TCP proxy of the test's own between the
// server and PostgreSQL, cuts it (every connection closed, new ones
// refused) and restores it.
func TestReadinessPostgres(t *testing.T) {
	testenv.SkipIfShort(t, "readiness: the server binary on PostgreSQL behind a proxy")
	db := postgresDatabase(t)
	u, err := url.Parse(db.url)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.addr()
	db.url = u.String()
	p := db.start(t)

	checkReady(t, p.base, http.StatusOK, readyBody)
	send(t, http.MethodPost, p.base+"/readyz", "").check(t, http.StatusMethodNotAllowed, `{"message":"Method not allowed."}`, "Allow", "GET, HEAD")

	proxy.cut()
	checkReady(t, p.base, http.StatusServiceUnavailable, notReadyBody)
	proxy.restore()
	checkReady(t, p.base, http.StatusOK, readyBody)
}

// TestReadinessSQLite: on SQLite the database is unreachable when its file
// is gone; here its folder is moved away and back.
func TestReadinessSQLite(t *testing.T) {
	testenv.SkipIfShort(t, "readiness: the server binary on SQLite")
	parent := t.TempDir()
	dir := filepath.Join(parent, "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := testDatabase{kind: "sqlite", url: "sqlite:" + filepath.Join(dir, "app.db"), dir: parent}
	p := db.start(t)
	checkReady(t, p.base, http.StatusOK, readyBody)

	moved := filepath.Join(parent, "elsewhere")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	checkReady(t, p.base, http.StatusServiceUnavailable, notReadyBody)
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	checkReady(t, p.base, http.StatusOK, readyBody)
}

// cutProxy forwards TCP connections to a target until it is cut: then
// every connection it carries is closed, and new ones are accepted and
// closed at once, as a network partition looks to a client whose packets
// are refused.
type cutProxy struct {
	t      *testing.T
	ln     net.Listener
	target string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{t: t, ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.cut()
		p.wg.Wait()
	})
	return p
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

func (p *cutProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed at cleanup
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		p.wg.Add(1)
		go p.forward(c)
	}
}

// forward copies between c and a new connection to the target, both ways,
// until either side or a cut closes them.
func (p *cutProxy) forward(c net.Conn) {
	defer p.wg.Done()
	upstream, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, upstream) {
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(upstream, c)
	go pipe(c, upstream)
	<-done
	c.Close()
	upstream.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, upstream)
	p.mu.Unlock()
}

// track registers a pair of connections, or closes them when the proxy
// was cut meanwhile.
func (p *cutProxy) track(c, upstream net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		c.Close()
		upstream.Close()
		return false
	}
	p.conns[c], p.conns[upstream] = struct{}{}, struct{}{}
	return true
}

// cut closes every connection and refuses new ones until restore.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
}

func (p *cutProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}
