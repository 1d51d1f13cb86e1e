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
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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

func (s *service) testArticles(t *testing.T) {
	collection := s.url("/api/articles")
	asAda := []string{"Content-Type", "application/json", "Authorization", "Bearer " + s.adaToken}
	asBob := []string{"Content-Type", "application/json", "Authorization", "Bearer " + s.bobToken}
	article := func(id int64, userID, title, author string, published bool) string {
		return fmt.Sprintf(`{"id":%d,"user_id":%s,"title":%q,"body":"Text","published":%t,"created_at":"<time>","updated_at":"<time>","author":{"id":%s,"name":%q}}`,
			id, userID, title, published, userID, author)
	}

	// Writes need a valid token.
	for _, headers := range [][]string{
		{"Content-Type", "application/json"},
		{"Content-Type", "application/json", "Authorization", "Bearer not.a.token"},
	} {
		send(t, http.MethodPost, collection, `{"title":"T","body":"B"}`, headers...).check(t,
			http.StatusUnauthorized, `{"message":"Unauthenticated."}`, "WWW-Authenticate", "Bearer")
	}
	send(t, http.MethodPost, collection, `{"body":"B"}`, asAda...).check(t, http.StatusUnprocessableEntity,
		`{"message":"The title field is required.","errors":{"title":["The title field is required."]}}`)

	// user_id is taken from the token, never from the body.
	r := send(t, http.MethodPost, collection, `{"title":" First ","body":"Text","published":true,"user_id":`+s.bob+`}`, asAda...)
	var created struct{ Data struct{ ID int64 } }
	r.decode(t, &created)
	first := created.Data.ID
	r.check(t, http.StatusCreated, `{"data":`+article(first, s.ada, "First", "Ada", true)+`}`,
		"Location", fmt.Sprintf("%s/%d", collection, first), "Content-Type", "application/json")

	second := s.createArticle(t, s.bobToken, "Second", true)
	draft := s.createArticle(t, s.adaToken, "Draft", false)

	send(t, http.MethodGet, collection, "").check(t, http.StatusOK, `{"data":[`+
		article(second, s.bob, "Second", "Bob", true)+","+article(first, s.ada, "First", "Ada", true)+`],`+
		`"links":{"first":"`+collection+`?page=1&per_page=15","last":"`+collection+`?page=1&per_page=15","prev":null,"next":null},`+
		`"meta":{"current_page":1,"from":1,"last_page":1,"path":"`+collection+`","per_page":15,"to":2,"total":2}}`)
	send(t, http.MethodGet, collection+"?per_page=1&page=2", "").check(t, http.StatusOK, `{"data":[`+
		article(first, s.ada, "First", "Ada", true)+`],`+
		`"links":{"first":"`+collection+`?page=1&per_page=1","last":"`+collection+`?page=2&per_page=1","prev":"`+collection+`?page=1&per_page=1","next":null},`+
		`"meta":{"current_page":2,"from":2,"last_page":2,"path":"`+collection+`","per_page":1,"to":2,"total":2}}`)

	show := func(id int64) string { return fmt.Sprintf("%s/%d", collection, id) }
	send(t, http.MethodGet, show(first), "").check(t, http.StatusOK, `{"data":`+article(first, s.ada, "First", "Ada", true)+`}`)
	// Reads are public: a bad or stale token is not looked at.
	badToken := []string{"Authorization", "Bearer not.a.token"}
	send(t, http.MethodGet, show(first), "", badToken...).check(t, http.StatusOK, `{"data":`+article(first, s.ada, "First", "Ada", true)+`}`)
	if r := send(t, http.MethodGet, collection, "", badToken...); r.status != http.StatusOK {
		t.Errorf("GET %s with a bad token: status %d, want 200 (%s)", collection, r.status, r.body)
	}
	// Other methods than the four routes' are 405, with or without a token.
	for _, headers := range [][]string{nil, asAda} {
		if r := send(t, http.MethodPut, show(first), `{}`, headers...); r.status != http.StatusMethodNotAllowed {
			t.Errorf("PUT %s: status %d, want 405 (%s)", show(first), r.status, r.body)
		}
	}
	for _, path := range []string{show(draft), show(999999), collection + "/abc", collection + "/0"} {
		send(t, http.MethodGet, path, "").check(t, http.StatusNotFound, `{"message":"Not found."}`)
	}

	// Another user's article is a 403, published or not.
	for _, id := range []int64{first, draft} {
		send(t, http.MethodDelete, show(id), "", asBob...).check(t, http.StatusForbidden,
			`{"message":"You can only delete your own articles."}`)
	}
	send(t, http.MethodDelete, show(first), "").check(t, http.StatusUnauthorized,
		`{"message":"Unauthenticated."}`, "WWW-Authenticate", "Bearer")
	send(t, http.MethodDelete, show(first), "", asAda...).check(t, http.StatusNoContent, "")
	send(t, http.MethodGet, show(first), "").check(t, http.StatusNotFound, `{"message":"Not found."}`)
	send(t, http.MethodDelete, show(first), "", asAda...).check(t, http.StatusNotFound, `{"message":"Not found."}`)
	// The author may delete their unpublished article.
	send(t, http.MethodDelete, show(draft), "", asAda...).check(t, http.StatusNoContent, "")
	send(t, http.MethodDelete, show(second), "", asBob...).check(t, http.StatusNoContent, "")
}

func (s *service) testGraphQL(t *testing.T) {
	// Bob's post, then 55 of Ada's in one request: mutation fields run
	// one after another, so the ids grow in document order.
	bobsPost := s.createPost(t, s.bobToken, "Bob's post")
	toDelete := s.createPost(t, s.adaToken, "To delete")
	var seed strings.Builder
	seed.WriteString("mutation {\n")
	for i := 1; i <= 55; i++ {
		fmt.Fprintf(&seed, "  p%02d: createPost(input: {title: \"Post %d\", body: \"Text\"}) { id }\n", i, i)
	}
	seed.WriteString("}")
	r := s.graphql(t, s.adaToken, seed.String(), nil)
	var seeded struct {
		Data map[string]struct{ ID string }
	}
	r.decode(t, &seeded)
	if r.status != http.StatusOK || len(seeded.Data) != 55 {
		t.Fatalf("seeding posts: %d %s", r.status, r.body)
	}
	// newest lists the n newest posts as {"id":"…"} objects.
	newest := func(n int) string {
		var items []string
		for i := 55; i > 55-n; i-- {
			items = append(items, fmt.Sprintf(`{"id":%q}`, seeded.Data[fmt.Sprintf("p%02d", i)].ID))
		}
		return strings.Join(items, ",")
	}
	p55 := seeded.Data["p55"].ID
	longTitle := strings.Repeat("é", 201)

	const createMutation = "mutation ($in: CreatePostInput!) {\n  createPost(input: $in) { title body tags author { id name } }\n}"
	validation := func(fields string, message string) string {
		return `{"data":null,"errors":[{"message":"` + message + `","locations":[{"line":2,"column":3}],"path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{` + fields + `}}}]}`
	}
	const titleRequired = `"input.title":["The title field is required."]`
	const bodyRequired = `"input.body":["The body field is required."]`

	tests := []struct {
		name       string
		token      string
		query      string
		variables  map[string]any
		wantStatus int
		wantBody   string
		wantHeader []string
	}{
		{name: "posts, first defaults to 10", query: `{ posts { id } }`,
			wantStatus: 200, wantBody: `{"data":{"posts":[` + newest(10) + `]}}`},
		{name: "posts, first 100 gives 50", query: `{ posts(first: 100) { id } }`,
			wantStatus: 200, wantBody: `{"data":{"posts":[` + newest(50) + `]}}`},
		{name: "posts, first -1 gives none", query: `{ posts(first: -1) { id } }`,
			wantStatus: 200, wantBody: `{"data":{"posts":[]}}`},
		{name: "posts, first 0 gives none", query: `query ($n: Int) { posts(first: $n) { id } }`, variables: map[string]any{"n": 0},
			wantStatus: 200, wantBody: `{"data":{"posts":[]}}`},
		{name: "posts with every field", query: `{ posts(first: 1) { id title body tags createdAt author { id name } } }`,
			wantStatus: 200, wantBody: `{"data":{"posts":[{"id":"` + p55 + `","title":"Post 55","body":"Text","tags":null,"createdAt":"<time>","author":{"id":"1","name":"Ada"}}]}}`},
		{name: "post", query: `query ($id: ID!) { post(id: $id) { id title author { name } } }`, variables: map[string]any{"id": p55},
			wantStatus: 200, wantBody: `{"data":{"post":{"id":"` + p55 + `","title":"Post 55","author":{"name":"Ada"}}}}`},
		{name: "post missing", query: `{ post(id: "999999") { id } }`,
			wantStatus: 200, wantBody: `{"data":{"post":null}}`},
		{name: "post with an id that is no number", query: `{ post(id: "abc") { id } }`,
			wantStatus: 200, wantBody: `{"data":{"post":null}}`},
		{name: "__typename", query: `{ __typename }`,
			wantStatus: 200, wantBody: `{"data":{"__typename":"Query"}}`},
		{name: "introspection is off", query: `{ __schema { queryType { name } } }`,
			wantStatus: 400, wantBody: `{"errors":[{"message":"GraphQL introspection is not allowed, but the query contained __schema.","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`},

		{name: "createPost", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": "  Hello  ", "body": "World", "tags": []string{"go", " graphql "}}},
			wantStatus: 200, wantBody: `{"data":{"createPost":{"title":"Hello","body":"World","tags":["go","graphql"],"author":{"id":"1","name":"Ada"}}}}`},
		{name: "createPost by Bob", token: s.bobToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": strings.Repeat("é", 200), "body": "World"}},
			wantStatus: 200, wantBody: `{"data":{"createPost":{"title":"` + strings.Repeat("é", 200) + `","body":"World","tags":null,"author":{"id":"2","name":"Bob"}}}}`},
		{name: "createPost with an empty title", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": "", "body": "World"}},
			wantStatus: 200, wantBody: validation(titleRequired, "The title field is required.")},
		{name: "createPost with a blank title", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": " \t ", "body": "World"}},
			wantStatus: 200, wantBody: validation(titleRequired, "The title field is required.")},
		{name: "createPost with a 201-character title", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": longTitle, "body": "World"}},
			wantStatus: 200, wantBody: validation(`"input.title":["The title field must not be greater than 200 characters."]`, "The title field must not be greater than 200 characters.")},
		{name: "createPost with an empty body", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": "Hello", "body": ""}},
			wantStatus: 200, wantBody: validation(bodyRequired, "The body field is required.")},
		{name: "createPost with a missing input field", token: s.adaToken, query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": "Hello"}},
			wantStatus: 400, wantBody: `{"errors":[{"message":"Variable \"$in\" got invalid value { title: \"Hello\" }; Field \"body\" of required type \"String!\" was not provided.","locations":[{"line":1,"column":11}],"extensions":{"code":"BAD_USER_INPUT"}}]}`},
		{name: "createPost without a token", query: createMutation,
			variables:  map[string]any{"in": map[string]any{"title": "Hello", "body": "World"}},
			wantStatus: 401, wantBody: `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`,
			wantHeader: []string{"WWW-Authenticate", "Bearer"}},
		{name: "query with a bad token", token: "not.a.token", query: `{ __typename }`,
			wantStatus: 401, wantBody: `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`,
			wantHeader: []string{"WWW-Authenticate", "Bearer"}},

		{name: "deletePost", token: s.adaToken, query: `mutation { deletePost(id: "` + toDelete + `") { id title author { name } } }`,
			wantStatus: 200, wantBody: `{"data":{"deletePost":{"id":"` + toDelete + `","title":"To delete","author":{"name":"Ada"}}}}`},
		{name: "post after deletePost", query: `{ post(id: "` + toDelete + `") { id } }`,
			wantStatus: 200, wantBody: `{"data":{"post":null}}`},
		{name: "deletePost again", token: s.adaToken, query: `mutation { deletePost(id: "` + toDelete + `") { id } }`,
			wantStatus: 200, wantBody: `{"data":{"deletePost":null},"errors":[{"message":"Post not found.","locations":[{"line":1,"column":12}],"path":["deletePost"],"extensions":{"code":"NOT_FOUND"}}]}`},
		{name: "deletePost of another's post", token: s.adaToken, query: `mutation { deletePost(id: "` + bobsPost + `") { id } }`,
			wantStatus: 200, wantBody: `{"data":{"deletePost":null},"errors":[{"message":"You can only delete your own posts.","locations":[{"line":1,"column":12}],"path":["deletePost"],"extensions":{"code":"FORBIDDEN"}}]}`},
		{name: "another's post is still there", query: `{ post(id: "` + bobsPost + `") { title } }`,
			wantStatus: 200, wantBody: `{"data":{"post":{"title":"Bob's post"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.graphql(t, tt.token, tt.query, tt.variables).check(t, tt.wantStatus, tt.wantBody,
				append([]string{"Cache-Control", "no-store", "Content-Type", "application/json; charset=utf-8"}, tt.wantHeader...)...)
		})
	}

	t.Run("mutation over GET", func(t *testing.T) {
		q := url.Values{"query": {`mutation { deletePost(id: "` + p55 + `") { id } }`}}
		send(t, http.MethodGet, s.url("/api/graphql?"+q.Encode()), "", "Authorization", "Bearer "+s.adaToken).check(t,
			http.StatusMethodNotAllowed,
			`{"errors":[{"message":"Mutations can only be sent with POST.","extensions":{"code":"BAD_USER_INPUT"}}]}`,
			"Allow", "POST", "Cache-Control", "no-store")
		s.graphql(t, "", `{ post(id: "`+p55+`") { id } }`, nil).check(t, http.StatusOK, `{"data":{"post":{"id":"`+p55+`"}}}`)
	})
	t.Run("query over GET", func(t *testing.T) {
		q := url.Values{"query": {`query ($id: ID!) { post(id: $id) { title } }`}, "variables": {`{"id":"` + p55 + `"}`}}
		send(t, http.MethodGet, s.url("/api/graphql?"+q.Encode()), "").check(t, http.StatusOK,
			`{"data":{"post":{"title":"Post 55"}}}`, "Cache-Control", "no-store")
	})
}

// testOneRuleSet sends the same bad title and body to the articles REST
// API and to the createPost mutation: both validate with the articles
// rules (articles.TitleRules, BodyRules), so the messages are the same,
// keyed "title" in one and "input.title" in the other.
func (s *service) testOneRuleSet(t *testing.T) {
	const mutation = `mutation ($in: CreatePostInput!) { createPost(input: $in) { id } }`
	long := strings.Repeat("é", 201)
	tests := []struct {
		name, title, body string
		want              map[string][]string
	}{
		{"empty title", "", "B", map[string][]string{"title": {"The title field is required."}}},
		{"a title of white space", ` \t\u00a0`, "B", map[string][]string{"title": {"The title field is required."}}},
		{"201 characters", long, "B", map[string][]string{"title": {"The title field must not be greater than 200 characters."}}},
		{"a null character", `a\u0000b`, "B", map[string][]string{"title": {"The title field must not contain null characters."}}},
		{"both, as Laravel reports every rule", long + `\u0000`, "B", map[string][]string{"title": {
			"The title field must not be greater than 200 characters.", "The title field must not contain null characters."}}},
		{"empty body and title", "", "", map[string][]string{"title": {"The title field is required."}, "body": {"The body field is required."}}},
		// Both judge the trimmed value: 200 characters between spaces
		// pass, 201 fail.
		{"201 characters between spaces", ` \u200b` + long + ` `, "B", map[string][]string{"title": {"The title field must not be greater than 200 characters."}}},
	}
	// A title of 200 characters between white space is accepted by both,
	// and stored trimmed by both.
	padded := " \u200b" + strings.Repeat("a", 200) + "\u00a0"
	rest := send(t, http.MethodPost, s.url("/api/articles"), `{"title":"`+padded+`","body":" B "}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+s.adaToken)
	if rest.status != http.StatusCreated || !strings.Contains(rest.body, `"title":"`+strings.Repeat("a", 200)+`","body":"B"`) {
		t.Errorf("REST, a padded title of 200 characters: %d %s", rest.status, rest.body)
	}
	gql := s.graphql(t, s.adaToken, `mutation ($in: CreatePostInput!) { createPost(input: $in) { title body tags } }`,
		map[string]any{"in": map[string]any{"title": " \u200b" + strings.Repeat("a", 200) + "\u00a0", "body": " B ", "tags": []any{" go\u200b"}}})
	if want := `{"data":{"createPost":{"title":"` + strings.Repeat("a", 200) + `","body":"B","tags":["go"]}}}`; gql.status != http.StatusOK || gql.body != want {
		t.Errorf("GraphQL, a padded title of 200 characters: %d %s; want 200 %s", gql.status, gql.body, want)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"title":"` + tc.title + `","body":"` + tc.body + `"}`
			rest := send(t, http.MethodPost, s.url("/api/articles"), in,
				"Content-Type", "application/json", "Authorization", "Bearer "+s.adaToken)
			var restBody struct {
				Message string
				Errors  map[string][]string
			}
			rest.decode(t, &restBody)
			if rest.status != http.StatusUnprocessableEntity || !reflect.DeepEqual(restBody.Errors, tc.want) {
				t.Errorf("REST: %d %s; want 422 with %v", rest.status, rest.body, tc.want)
			}
			var vars map[string]any
			if err := json.Unmarshal([]byte(`{"in":`+in+`}`), &vars); err != nil {
				t.Fatal(err)
			}
			gql := s.graphql(t, s.adaToken, mutation, vars)
			var gqlBody struct {
				Errors []struct {
					Message    string
					Extensions struct {
						Code       string
						Validation map[string][]string
					}
				}
			}
			gql.decode(t, &gqlBody)
			want := map[string][]string{}
			for k, v := range tc.want {
				want["input."+k] = v
			}
			if gql.status != http.StatusOK || len(gqlBody.Errors) != 1 || gqlBody.Errors[0].Extensions.Code != "VALIDATION_FAILED" ||
				!reflect.DeepEqual(gqlBody.Errors[0].Extensions.Validation, want) {
				t.Fatalf("GraphQL: %d %s; want VALIDATION_FAILED with %v", gql.status, gql.body, want)
			}
			if gqlBody.Errors[0].Message != restBody.Message {
				t.Errorf("summaries differ: GraphQL %q, REST %q", gqlBody.Errors[0].Message, restBody.Message)
			}
		})
	}
}

func (s *service) testUsersDelete(t *testing.T) {
	id := strings.TrimSpace(s.db.mustRun(t, "users", "add", "--name", "Cy", "--email", "cy@example.com", "--password", "cy's password"))
	token := strings.TrimSpace(s.db.mustRun(t, "token", "--user", id))
	article := s.createArticle(t, token, "Cy's article", true)
	post := s.createPost(t, token, "Cy's post")
	adasArticle := s.createArticle(t, s.adaToken, "Ada's article", true)

	// total returns the number of published articles.
	total := func() int {
		var page struct{ Meta struct{ Total int } }
		send(t, http.MethodGet, s.url("/api/articles"), "").decode(t, &page)
		return page.Meta.Total
	}
	// latestPost returns the newest post.
	latestPost := func() string {
		return s.graphql(t, "", `{ posts(first: 1) { id title } }`, nil).body
	}

	if got, want := s.db.mustRun(t, "users", "delete", "--id", id), "deleted user "+id+"\n"; got != want {
		t.Errorf("users delete printed %q, want %q", got, want)
	}
	send(t, http.MethodGet, fmt.Sprintf("%s/%d", s.url("/api/articles"), article), "").check(t, http.StatusNotFound, `{"message":"Not found."}`)
	send(t, http.MethodGet, fmt.Sprintf("%s/%d", s.url("/api/articles"), adasArticle), "").check(t, http.StatusOK,
		fmt.Sprintf(`{"data":{"id":%d,"user_id":1,"title":"Ada's article","body":"Text","published":true,"created_at":"<time>","updated_at":"<time>","author":{"id":1,"name":"Ada"}}}`, adasArticle))
	s.graphql(t, "", `{ post(id: "`+post+`") { id } }`, nil).check(t, http.StatusOK, `{"data":{"post":null}}`)

	// The token is still valid, but its user is gone: nothing is written.
	articlesBefore, postsBefore := total(), latestPost()
	send(t, http.MethodPost, s.url("/api/articles"), `{"title":"Ghost","body":"Text","published":true}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+token).check(t,
		http.StatusUnauthorized, `{"message":"Unauthenticated."}`, "WWW-Authenticate", "Bearer")
	// A mutation answers as REST does: 401, the body in GraphQL's shape.
	ghost := `{"data":null,"errors":[{"message":"Unauthenticated.","locations":[{"line":1,"column":12}],"path":["createPost"],"extensions":{"code":"UNAUTHENTICATED"}}]}`
	s.graphql(t, token, `mutation { createPost(input: {title: "Ghost", body: "Text"}) { id } }`, nil).check(t,
		http.StatusUnauthorized, ghost, "WWW-Authenticate", "Bearer", "Content-Type", "application/json; charset=utf-8")
	send(t, http.MethodPost, s.url("/api/graphql"), `{"query":"mutation { createPost(input: {title: \"Ghost\", body: \"Text\"}) { id } }"}`,
		"Content-Type", "application/json", "Accept", "application/graphql-response+json", "Authorization", "Bearer "+token).check(t,
		http.StatusUnauthorized, ghost, "WWW-Authenticate", "Bearer", "Content-Type", "application/graphql-response+json; charset=utf-8")
	if got := total(); got != articlesBefore {
		t.Errorf("published articles: got %d after the refused create, want %d", got, articlesBefore)
	}
	if got := latestPost(); got != postsBefore {
		t.Errorf("newest post: got %s after the refused create, want %s", got, postsBefore)
	}
	send(t, http.MethodPost, s.url("/api/auth/login"), `{"email":"cy@example.com","password":"cy's password"}`,
		"Content-Type", "application/json").check(t, http.StatusUnauthorized, `{"message":"Invalid credentials."}`)
}

// testShutdown starts a second server, configured from the environment,
// and stops it with SIGTERM while a request is in flight: its body is only
// half sent.
func (s *service) testShutdown(t *testing.T) {
	// APP_DEBUG turns introspection on when GRAPHQL_INTROSPECTION is unset.
	p := s.db.start(t, "APP_DEBUG=true", "GRAPHQL_MAX_DEPTH=2")
	if _, ok, _ := p.find(func(l logLine) bool { return l.message() == "introspection: on" }); !ok {
		t.Errorf("no log line %q in\n%s", "introspection: on", p.log())
	}
	// Introspection is bounded by its own rule, not by the depth limit.
	send(t, http.MethodGet, p.base+"/api/graphql?query="+url.QueryEscape("{ __schema { queryType { name } } }"), "").check(t,
		http.StatusOK, `{"data":{"__schema":{"queryType":{"name":"Query"}}}}`)
	send(t, http.MethodGet, p.base+"/api/graphql?query="+url.QueryEscape("{ posts { author { name } } }"), "").check(t,
		http.StatusBadRequest, `{"errors":[{"message":"query depth 3 exceeds the maximum of 2","locations":[{"line":1,"column":20}],"extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"depth","max":2,"found":3}}}]}`)

	body := `{"query":"mutation { createPost(input: {title: \"During shutdown\", body: \"Text\"}) { title body } }"}`
	conn, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(commandTimeout)); err != nil {
		t.Fatal(err)
	}
	// Expect: 100-continue makes the server answer once the handler starts
	// reading the body: from then on the request is in flight.
	fmt.Fprintf(conn, "POST /api/graphql HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Authorization: Bearer %s\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", p.addr, s.adaToken, len(body))
	reader := bufio.NewReader(conn)
	cont, err := http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cont.StatusCode != http.StatusContinue {
		t.Fatalf("status: got %d, want 100 Continue", cont.StatusCode)
	}
	half := len(body) / 2
	if _, err := io.WriteString(conn, body[:half]); err != nil {
		t.Fatal(err)
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "shutdown line", func(l logLine) bool { return strings.HasPrefix(l.message(), "shutting down") })
	select {
	case <-p.exited:
		t.Fatalf("the server exited with a request in flight; its log:\n%s", p.log())
	default:
	}
	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatalf("sending the rest of the in-flight request: %v", err)
	}
	resp, err := http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatalf("reading the answer to the in-flight request: %v", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer to the in-flight request: %v", err)
	}
	response{status: resp.StatusCode, header: resp.Header, body: string(got)}.check(t, http.StatusOK,
		`{"data":{"createPost":{"title":"During shutdown","body":"Text"}}}`)

	if code := p.wait(t); code != 0 {
		t.Errorf("exit status: got %d, want 0; log:\n%s", code, p.log())
	}
	if _, ok, _ := p.find(func(l logLine) bool { return l.message() == "stopped" }); !ok {
		t.Errorf("no %q line in\n%s", "stopped", p.log())
	}
	// The post written while shutting down is kept.
	s.graphql(t, "", `{ posts(first: 1) { title } }`, nil).check(t, http.StatusOK,
		`{"data":{"posts":[{"title":"During shutdown"}]}}`)
}

// testSecretFile checks the JWT secret the server created (mode 0600, 32
// random bytes in hex) and that a secret file others can read stops serve.
func (s *service) testSecretFile(t *testing.T) {
	if s.db.kind == "postgres" {
		for _, name := range []string{"jwt-secret", filepath.Join("data", "jwt-secret")} {
			if _, err := os.Stat(filepath.Join(s.db.dir, name)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("with PostgreSQL the secret lives in the database, yet %s exists (%v)", name, err)
			}
		}
		return
	}
	info, err := os.Stat(s.secretFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Errorf("mode of %s: got %v, want -rw-------", s.secretFile, got)
	}
	content, err := os.ReadFile(s.secretFile)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}\n$`).Match(content) {
		t.Errorf("%s holds %q, want 64 hex digits and a newline", s.secretFile, content)
	}

	if err := os.Chmod(s.secretFile, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.secretFile, 0o600) })
	res := s.db.run(t, s.db.env("ADDR=127.0.0.1:0"), "serve")
	if res.code != 1 {
		t.Errorf("serve with a readable secret file: exit status %d, want 1", res.code)
	}
	if want := s.secretName + " is readable by other users"; !strings.Contains(res.stderr, want) {
		t.Errorf("stderr: got %q, want it to contain %q", res.stderr, want)
	}
	if strings.Contains(res.stderr, "listening on") {
		t.Errorf("serve listened despite the readable secret file:\n%s", res.stderr)
	}
}
