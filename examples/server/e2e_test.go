package main

// End-to-end tests: the real binary, built once, run as a child process on a
// loopback port over a fresh SQLite file and, with TEST_DATABASE_URL, over a
// fresh PostgreSQL schema, driven over real HTTP.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/testbin"
)

// server is the example server's binary, built on first use.
var server = testbin.New(".", "server")

func TestMain(m *testing.M) {
	code := m.Run()
	server.Remove()
	os.Exit(code)
}

// serverBinary returns the path of the example server, built once per
// test run.
func serverBinary(t *testing.T) string {
	t.Helper()
	return server.Path(t)
}

// commandTimeout bounds every child process a test waits for.
const commandTimeout = 20 * time.Second

// env is the whole environment of a child process: DATABASE_URL,
// BCRYPT_ROUNDS=4 (the least cost: users add and the login's stand-in hash
// then take well under a millisecond) and extra, which may override them
// (the last value of a variable wins), and of the test's own environment
// only HOME and the PG* variables (a password in PGPASSWORD or ~/.pgpass),
// so that a JWT_SECRET or APP_DEBUG of the developer's shell cannot change
// the outcome.
func (db testDatabase) env(extra ...string) []string {
	env := []string{"DATABASE_URL=" + db.url, "BCRYPT_ROUNDS=4"}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// cmdResult is what a finished sub-command printed and its exit status.
type cmdResult struct {
	stdout, stderr string
	code           int
}

// run runs the binary with args in db's folder and waits for it.
func (db testDatabase) run(t *testing.T, env []string, args ...string) cmdResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, serverBinary(t), args...)
	cmd.Dir = db.dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("server %s: %v", strings.Join(args, " "), err)
	}
	return cmdResult{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// mustRun runs a sub-command that must succeed and returns its standard
// output.
func (db testDatabase) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	res := db.run(t, db.env(), args...)
	if res.code != 0 {
		t.Fatalf("server %s: exit status %d\n%s", strings.Join(args, " "), res.code, res.stderr)
	}
	return res.stdout
}

// logLine is one JSON line the server wrote to standard error.
type logLine struct {
	raw    string
	fields map[string]any
}

func (l logLine) message() string { s, _ := l.fields["message"].(string); return s }

// process is a running `server serve`.
type process struct {
	cmd  *exec.Cmd
	addr string // host:port it listens on
	base string // http://host:port

	mu      sync.Mutex
	lines   []logLine
	changed chan struct{} // closed and replaced on every new line
	exited  chan struct{} // closed when the process has exited
	waitErr error         // set before exited is closed
}

// start runs `server serve` on a random loopback port and waits until it
// listens. The process gets SIGTERM at cleanup if it still runs.
func (db testDatabase) start(t *testing.T, extraEnv ...string) *process {
	t.Helper()
	p := db.launch(t, extraEnv...)
	p.waitListening(t)
	return p
}

// launch runs `server serve` on a random loopback port without waiting.
func (db testDatabase) launch(t *testing.T, extraEnv ...string) *process {
	t.Helper()
	return db.launchTo(t, nil, extraEnv...)
}

// launchTo is launch with the server's standard output written to stdout
// (discarded when nil), and shown with the log should the test fail.
func (db testDatabase) launchTo(t *testing.T, stdout *logbuf.Buffer, extraEnv ...string) *process {
	t.Helper()
	cmd := exec.Command(serverBinary(t), "serve")
	cmd.Dir = db.dir
	cmd.Env = db.env(append([]string{"ADDR=127.0.0.1:0"}, extraEnv...)...)
	if stdout != nil {
		cmd.Stdout = stdout
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, changed: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.add(sc.Text())
		}
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.exited:
			case <-time.After(commandTimeout):
				_ = cmd.Process.Kill()
				<-p.exited
				t.Errorf("the server did not stop on SIGTERM")
			}
		}
		if t.Failed() {
			t.Logf("server log:\n%s", p.log())
			if stdout != nil {
				t.Logf("standard output:\n%s", stdout.String())
			}
		}
	})
	return p
}

// waitListening waits until p listens and notes its address.
func (p *process) waitListening(t *testing.T) {
	t.Helper()
	listening := p.waitFor(t, "listening line", func(l logLine) bool {
		return strings.HasPrefix(l.message(), "listening on http://")
	})
	addr, _ := listening.fields["addr"].(string)
	if addr == "" {
		t.Fatalf("listening line without addr: %s", listening.raw)
	}
	p.addr, p.base = addr, "http://"+addr
}

func (p *process) add(raw string) {
	var fields map[string]any
	_ = json.Unmarshal([]byte(raw), &fields) // a line that is no JSON keeps nil fields
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines = append(p.lines, logLine{raw: raw, fields: fields})
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, l := range p.lines {
		b.WriteString(l.raw + "\n")
	}
	return b.String()
}

// find returns the first log line that match accepts.
func (p *process) find(match func(logLine) bool) (logLine, bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lines {
		if match(l) {
			return l, true, nil
		}
	}
	return logLine{}, false, p.changed
}

// waitFor waits for a log line that match accepts.
func (p *process) waitFor(t *testing.T, what string, match func(logLine) bool) logLine {
	t.Helper()
	deadline := time.After(commandTimeout)
	for {
		l, ok, changed := p.find(match)
		if ok {
			return l
		}
		select {
		case <-changed:
		case <-p.exited:
			if l, ok, _ := p.find(match); ok {
				return l
			}
			t.Fatalf("the server exited (%v) before writing the %s; its log:\n%s", p.waitErr, what, p.log())
		case <-deadline:
			t.Fatalf("no %s after %v; the server's log:\n%s", what, commandTimeout, p.log())
		}
	}
}

// wait waits for the process to exit and returns its exit status.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(commandTimeout):
		t.Fatalf("the server did not exit within %v", commandTimeout)
	}
	return p.cmd.ProcessState.ExitCode()
}

// response is an HTTP answer, its body read.
type response struct {
	status int
	header http.Header
	body   string
}

var client = &http.Client{Timeout: commandTimeout}

// send sends one request. headers are name, value pairs.
func send(t *testing.T, method, url, body string, headers ...string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// timestamps matches the times the service writes (UTC, microseconds).
var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"`)

// check compares a response with the status and body wanted; in the body,
// every timestamp reads "<time>". headers are name, value pairs wanted.
func (r response) check(t *testing.T, wantStatus int, wantBody string, headers ...string) {
	t.Helper()
	if r.status != wantStatus {
		t.Errorf("status: got %d, want %d (body %s)", r.status, wantStatus, r.body)
	}
	if got := timestamps.ReplaceAllString(r.body, `"<time>"`); got != wantBody {
		t.Errorf("body:\n got %s\nwant %s", got, wantBody)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if got := r.header.Get(headers[i]); got != headers[i+1] {
			t.Errorf("header %s: got %q, want %q", headers[i], got, headers[i+1])
		}
	}
}

// decode decodes the body into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// service is a running server with two users, Ada and Bob.
type service struct {
	db         testDatabase
	p          *process
	ada, bob   string // user ids
	adaToken   string
	bobToken   string
	adaLogin   string // e-mail address
	adaSecret  string // password
	secretFile string // its path
	secretName string // its name in messages
}

func (s *service) url(path string) string { return s.p.base + path }

// graphql posts a GraphQL request; token may be empty.
func (s *service) graphql(t *testing.T, token, query string, variables map[string]any) response {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": variables})
	if err != nil {
		t.Fatal(err)
	}
	headers := []string{"Content-Type", "application/json"}
	if token != "" {
		headers = append(headers, "Authorization", "Bearer "+token)
	}
	return send(t, http.MethodPost, s.url("/api/graphql"), string(body), headers...)
}

// createArticle creates an article that must be accepted and returns its id.
func (s *service) createArticle(t *testing.T, token, title string, published bool) int64 {
	t.Helper()
	body := fmt.Sprintf(`{"title":%q,"body":"Text","published":%t}`, title, published)
	r := send(t, http.MethodPost, s.url("/api/articles"), body, "Content-Type", "application/json", "Authorization", "Bearer "+token)
	if r.status != http.StatusCreated {
		t.Fatalf("creating article %q: %d %s", title, r.status, r.body)
	}
	var got struct{ Data struct{ ID int64 } }
	r.decode(t, &got)
	return got.Data.ID
}

// createPost creates a post that must be accepted and returns its id.
func (s *service) createPost(t *testing.T, token, title string) string {
	t.Helper()
	r := s.graphql(t, token, `mutation ($in: CreatePostInput!) { createPost(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"title": title, "body": "Text"}})
	var got struct {
		Data struct{ CreatePost struct{ ID string } }
	}
	r.decode(t, &got)
	if r.status != http.StatusOK || got.Data.CreatePost.ID == "" {
		t.Fatalf("creating post %q: %d %s", title, r.status, r.body)
	}
	return got.Data.CreatePost.ID
}

// TestServer runs the binary on each database: the sub-commands set up two
// users, one server serves the subtests in turn (they share its data, so
// they run in order), and the shutdown subtest stops a second one.
func TestServer(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			serverBinary(t)

			res := db.run(t, db.env(), "migrate")
			if res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, `"message":"migrated"`) {
				t.Fatalf("migrate: exit status %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
			}
			s := &service{db: db, adaLogin: "ada@example.com", adaSecret: "correct horse"}
			if got := db.mustRun(t, "users", "add", "--name", "Ada", "--email", "  Ada@Example.com ", "--password", s.adaSecret); got != "1\n" {
				t.Fatalf("users add Ada printed %q, want %q", got, "1\n")
			}
			if got := db.mustRun(t, "users", "add", "--name", "Bob", "--email", "bob@example.com", "--password", "bob's password"); got != "2\n" {
				t.Fatalf("users add Bob printed %q, want %q", got, "2\n")
			}
			s.ada, s.bob = "1", "2"
			s.adaToken = strings.TrimSpace(db.mustRun(t, "token", "--user", s.ada))
			s.bobToken = strings.TrimSpace(db.mustRun(t, "token", "--user", s.bob))
			s.p = db.start(t)
			// The secret file is beside app.db; PostgreSQL keeps the
			// secret in the database, and no file is written.
			s.secretFile, s.secretName = filepath.Join(db.dir, "jwt-secret"), filepath.Join(db.dir, "jwt-secret")

			t.Run("startup log", s.testStartupLog)
			t.Run("commands", s.testCommands)
			t.Run("health and unknown paths", s.testHealth)
			t.Run("login", s.testLogin)
			t.Run("articles", s.testArticles)
			t.Run("graphql", s.testGraphQL)
			t.Run("one rule set for both APIs", s.testOneRuleSet)
			t.Run("cursor pages", s.testPages)
			t.Run("users delete", s.testUsersDelete)
			t.Run("shutdown", s.testShutdown)
			t.Run("secret file", s.testSecretFile)
		})
	}
}

func (s *service) testStartupLog(t *testing.T) {
	where := strings.TrimPrefix(s.db.url, "sqlite:")
	if u, err := url.Parse(s.db.url); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			where = u.String()
		}
	}
	secretAt := s.secretName
	if s.db.kind == "postgres" {
		secretAt = "the table server_secrets of the database"
	}
	for _, want := range []string{
		"database: " + s.db.kind + " " + where,
		"JWT_SECRET is unset: tokens are signed with the secret generated in " + secretAt + "; set JWT_SECRET in production",
		"introspection: off",
		"listening on http://" + s.p.addr,
	} {
		if _, ok, _ := s.p.find(func(l logLine) bool { return l.message() == want }); !ok {
			t.Errorf("no log line %q in\n%s", want, s.p.log())
		}
	}
}

func (s *service) testCommands(t *testing.T) {
	tests := []struct {
		name       string
		env        []string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // a part of it
	}{
		{name: "help", args: []string{"help"}, wantCode: 0, wantStderr: "server users add --name N --email E --password P"},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: 2, wantStderr: `unknown command "frobnicate"`},
		{name: "users without add, delete or logout", args: []string{"users"}, wantCode: 2, wantStderr: "users needs add, delete or logout"},
		{name: "users add without password", args: []string{"users", "add", "--name", "Cy", "--email", "cy@example.com"}, wantCode: 2, wantStderr: "users add needs --name, --email and --password"},
		{name: "users add with a taken e-mail", args: []string{"users", "add", "--name", "Ada", "--email", "ADA@example.com", "--password", "x"}, wantCode: 1, wantStderr: "the e-mail address is taken"},
		{name: "users add with an unknown flag", args: []string{"users", "add", "--nick", "x"}, wantCode: 2, wantStderr: "flag provided but not defined: -nick"},
		{name: "users delete without id", args: []string{"users", "delete"}, wantCode: 2, wantStderr: "users delete needs --id, a positive integer"},
		{name: "users delete of a missing user", args: []string{"users", "delete", "--id", "999"}, wantCode: 1, wantStderr: "deleting user 999"},
		{name: "token without user", args: []string{"token"}, wantCode: 2, wantStderr: "token needs --user, a positive integer"},
		{name: "token with a short ttl", args: []string{"token", "--user", "1", "--ttl", "500ms"}, wantCode: 2, wantStderr: "--ttl must be at least 1s"},
		{name: "token for a missing user", args: []string{"token", "--user", "999"}, wantCode: 1, wantStderr: "token: there is no user 999 (see users add)"},
		{name: "token with a short JWT_SECRET", env: []string{"JWT_SECRET=short"}, args: []string{"token", "--user", "1"}, wantCode: 1, wantStderr: "JWT_SECRET must be at least 32 bytes"},
		{name: "bad JWT_TTL", env: []string{"JWT_TTL=soon"}, args: []string{"token", "--user", "1"}, wantCode: 1, wantStderr: `JWT_TTL=\"soon\" is not a positive duration`},
		{name: "JWT_TTL under a second", env: []string{"JWT_TTL=500ms"}, args: []string{"token", "--user", "1"}, wantCode: 1, wantStderr: `JWT_TTL=\"500ms\" is shorter than the least token lifetime, 1s`},
		{name: "bad ADDR", env: []string{"ADDR=bogus"}, args: []string{"serve"}, wantCode: 1, wantStderr: `ADDR=\"bogus\" is not a host:port address such as :8080 or 127.0.0.1:8080`},
		{name: "bad DATABASE_URL", env: []string{"DATABASE_URL=mysql://x"}, args: []string{"migrate"}, wantCode: 1, wantStderr: "use sqlite:PATH or a postgres:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.db.run(t, append(s.db.env(), tt.env...), tt.args...)
			if res.code != tt.wantCode {
				t.Errorf("exit status: got %d, want %d (stderr %s)", res.code, tt.wantCode, res.stderr)
			}
			if res.stdout != tt.wantStdout {
				t.Errorf("stdout: got %q, want %q", res.stdout, tt.wantStdout)
			}
			if !strings.Contains(res.stderr, tt.wantStderr) {
				t.Errorf("stderr: got %q, want it to contain %q", res.stderr, tt.wantStderr)
			}
		})
	}

	t.Run("token ttl", func(t *testing.T) {
		token := strings.TrimSpace(s.db.mustRun(t, "token", "--user", s.bob, "--ttl", "10m"))
		parts := strings.Split(token, ".")
		if len(parts) != 3 {
			t.Fatalf("token %q is not a compact JWS", token)
		}
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		var claims struct {
			Sub      string
			Iat, Exp int64
			JTI      string
		}
		if err := json.Unmarshal(payload, &claims); err != nil {
			t.Fatal(err)
		}
		if claims.Sub != s.bob || claims.Exp-claims.Iat != 600 || claims.JTI == "" {
			t.Errorf("claims %s: want sub %q, exp 600 s after iat, and a jti", payload, s.bob)
		}
		// The server, sharing the secret file, accepts it.
		r := s.graphql(t, token, `mutation { deletePost(id: "999999") { id } }`, nil)
		r.check(t, http.StatusOK, `{"data":{"deletePost":null},"errors":[{"message":"Post not found.","locations":[{"line":1,"column":12}],"path":["deletePost"],"extensions":{"code":"NOT_FOUND"}}]}`)
	})
}

func (s *service) testHealth(t *testing.T) {
	send(t, http.MethodGet, s.url("/healthz"), "").check(t, http.StatusOK, `{"status":"ok"}`,
		"Content-Type", "application/json", "Cache-Control", "no-store")
	for _, path := range []string{"/", "/nope", "/api", "/api/graphql/extra", "/api/auth"} {
		send(t, http.MethodGet, s.url(path), "").check(t, http.StatusNotFound, `{"message":"Not found."}`,
			"Content-Type", "application/json")
	}
}

func (s *service) testLogin(t *testing.T) {
	login := func(body string) response {
		return send(t, http.MethodPost, s.url("/api/auth/login"), body, "Content-Type", "application/json")
	}
	r := login(fmt.Sprintf(`{"email":%q,"password":%q}`, s.adaLogin, s.adaSecret))
	var got struct {
		AccessToken string `json:"access_token"`
	}
	r.decode(t, &got)
	if got.AccessToken == "" {
		t.Fatalf("no access_token in %s", r.body)
	}
	r.body = strings.Replace(r.body, got.AccessToken, "<token>", 1)
	r.check(t, http.StatusOK, `{"access_token":"<token>","token_type":"bearer","expires_in":3600}`,
		"Content-Type", "application/json", "Cache-Control", "no-store")

	// The token authenticates a mutation (which writes nothing here).
	s.graphql(t, got.AccessToken, `mutation { deletePost(id: "999999") { id } }`, nil).check(t, http.StatusOK,
		`{"data":{"deletePost":null},"errors":[{"message":"Post not found.","locations":[{"line":1,"column":12}],"path":["deletePost"],"extensions":{"code":"NOT_FOUND"}}]}`)

	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantBody   string
	}{
		{name: "bad password", body: fmt.Sprintf(`{"email":%q,"password":"wrong"}`, s.adaLogin),
			wantStatus: http.StatusUnauthorized, wantBody: `{"message":"Invalid credentials."}`},
		{name: "unknown e-mail", body: `{"email":"nobody@example.com","password":"wrong"}`,
			wantStatus: http.StatusUnauthorized, wantBody: `{"message":"Invalid credentials."}`},
		{name: "missing fields", body: `{}`, wantStatus: http.StatusUnprocessableEntity,
			wantBody: `{"message":"The email field is required. (and 1 more error)","errors":{"email":["The email field is required."],"password":["The password field is required."]}}`},
		{name: "missing password", body: fmt.Sprintf(`{"email":%q}`, s.adaLogin), wantStatus: http.StatusUnprocessableEntity,
			wantBody: `{"message":"The password field is required.","errors":{"password":["The password field is required."]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			login(tt.body).check(t, tt.wantStatus, tt.wantBody)
		})
	}
}
