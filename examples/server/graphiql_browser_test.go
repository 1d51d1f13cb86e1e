package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

// screenshotVar names the environment variable that, set to 1, makes
// TestGraphiQLInBrowser write docs/graphiql.png anew.
const screenshotVar = "UPDATE_GRAPHIQL_SCREENSHOT"

// chromium returns the path of a Chromium (or Chrome) binary. Without one
// the test is skipped, or fails when CI is set (.ci/run installs Debian's
// chromium package).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium on PATH: install it (apt-get install chromium) to run the GraphiQL browser test"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browserLog is what the page did, as the DevTools protocol reported it.
type browserLog struct {
	mu         sync.Mutex
	requests   []*network.Request // every request the page sent
	problems   []string           // exceptions, CSP reports, console errors
	consoleLog []string           // every console and log entry, for a failure's report
}

func (b *browserLog) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request)
	case *runtime.EventExceptionThrown:
		b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Error())
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range ev.Args {
			args = append(args, string(a.Value)+a.Description)
		}
		line := fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " "))
		b.consoleLog = append(b.consoleLog, line)
		if ev.Type == runtime.APITypeError {
			b.problems = append(b.problems, line)
		}
	case *cdplog.EventEntryAdded:
		line := fmt.Sprintf("log %s/%s: %s %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text, ev.Entry.URL)
		b.consoleLog = append(b.consoleLog, line)
		if ev.Entry.Source == cdplog.SourceSecurity || strings.Contains(ev.Entry.Text, "Content Security Policy") ||
			ev.Entry.Level == cdplog.LevelError {
			b.problems = append(b.problems, line)
		}
	}
}

func (b *browserLog) snapshot() ([]*network.Request, []string, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*network.Request(nil), b.requests...), append([]string(nil), b.problems...), append([]string(nil), b.consoleLog...)
}

// recordViolations is run in every document before its own scripts: it
// keeps the page's securitypolicyviolation events, which the test reads
// at the end.
const recordViolations = `window.__violations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__violations.push(e.violatedDirective + ' blocked ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber);
});`

// TestGraphiQLInBrowser drives headless Chromium through the GraphiQL page
// that the server binary serves on GET /api/graphql: the schema loads
// from introspection (the docs explorer shows the Query type's fields), a
// bearer token from the login typed into the headers editor carries a
// mutation, and a query reads its result. No request may leave
// 127.0.0.1 (name resolution is cut off for every other host as well) and
// the page may report no CSP violation, exception or console error.
func TestGraphiQLInBrowser(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: headless Chromium against the server binary")
	chrome := chromium(t)

	db := sqliteDatabase(t)
	db.mustRun(t, "migrate")
	db.mustRun(t, "users", "add", "--name", "Ada", "--email", "ada@example.com", "--password", "correct horse")
	p := db.start(t, "GRAPHQL_INTROSPECTION=true")
	login := send(t, http.MethodPost, p.base+"/api/auth/login", `{"email":"ada@example.com","password":"correct horse"}`,
		"Content-Type", "application/json")
	var session struct {
		AccessToken string `json:"access_token"`
	}
	login.decode(t, &session)
	if login.status != http.StatusOK || session.AccessToken == "" {
		t.Fatalf("login: %d %s", login.status, login.body)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 720),
		chromedp.NoSandbox, // tests may run as root
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	defer cancelBrowser()

	var events browserLog
	chromedp.ListenTarget(ctx, events.listen)
	defer func() {
		if t.Failed() {
			_, _, lines := events.snapshot()
			t.Logf("browser console:\n%s", strings.Join(lines, "\n"))
		}
	}()

	const firstQuery = "{\n  posts {\n    title\n    author { name }\n  }\n}"
	pageURL := p.base + "/api/graphql?query=" + url.QueryEscape(firstQuery)
	const (
		queryEditor   = ".graphiql-query-editor .CodeMirror"
		headersEditor = `section.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror`
		response      = ".graphiql-response .CodeMirror"
		docs          = ".graphiql-doc-explorer"
	)
	start := time.Now()
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		defer func() { t.Logf("%s: done at %v", what, time.Since(start).Round(time.Millisecond)) }()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("opening the page",
		network.Enable(),
		cdplog.Enable(),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(recordViolations).Do(ctx)
			return err
		}),
		chromedp.Navigate(pageURL),
		chromedp.WaitVisible(".graphiql-execute-button"),
	)

	// The schema, from introspection: the docs explorer lists the root
	// types, and the Query type's fields with their descriptions.
	run("waiting for the schema in the docs explorer",
		chromedp.Click(`button[aria-label="Show Documentation Explorer"]`),
		chromedp.WaitVisible(docs),
		chromedp.Click(`//div[contains(@class,"graphiql-doc-explorer")]//a[text()="Query"]`, chromedp.BySearch),
		waitText(docs, "The newest posts, at most 50."),
	)
	if got := editorValue(t, ctx, queryEditor); got != firstQuery {
		t.Errorf("query editor from ?query=: got %q, want %q", got, firstQuery)
	}

	// The token, typed into the headers editor key by key.
	headers := `{"Authorization": "Bearer ` + session.AccessToken + `"}`
	run("typing the headers",
		chromedp.Click(`button[data-name="headers"]`),
		chromedp.WaitVisible(headersEditor),
		chromedp.Click(headersEditor+" .CodeMirror-lines"),
		chromedp.KeyEvent(headers),
	)
	if got := editorValue(t, ctx, headersEditor); got != headers {
		t.Fatalf("headers editor: got %q, want %q", got, headers)
	}

	// A mutation with the token, then a query that reads what it wrote.
	mutation := `mutation { createPost(input: {title: "Written in GraphiQL", body: "Sent from a browser."}) { title author { name } } }`
	got := execute(t, ctx, queryEditor, response, mutation)
	if want := `{"data":{"createPost":{"title":"Written in GraphiQL","author":{"name":"Ada"}}}}`; got != want {
		t.Errorf("mutation: got %s, want %s", got, want)
	}
	got = execute(t, ctx, queryEditor, response, firstQuery)
	if want := `{"data":{"posts":[{"title":"Written in GraphiQL","author":{"name":"Ada"}}]}}`; got != want {
		t.Errorf("query: got %s, want %s", got, want)
	}

	// The dialogs (their scroll lock is where a component library would
	// add a <style> element) open and close under the same policy.
	for _, dialog := range []string{"Open settings dialog", "Open short keys dialog"} {
		run("opening the dialog "+dialog,
			chromedp.Click(fmt.Sprintf(`button[aria-label=%q]`, dialog)),
			chromedp.WaitVisible(`[role="dialog"]`),
			chromedp.KeyEvent(kb.Escape),
			chromedp.WaitNotPresent(`[role="dialog"]`),
		)
	}

	if os.Getenv(screenshotVar) == "1" {
		var png []byte
		scroll := fmt.Sprintf(`document.querySelector(%q).CodeMirror.scrollTo(0, 0)`, headersEditor)
		run("taking the screenshot", chromedp.Evaluate(scroll, nil), chromedp.CaptureScreenshot(&png))
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "graphiql.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var violations []string
	run("reading the CSP violations", chromedp.Evaluate(`window.__violations`, &violations))
	requests, problems, _ := events.snapshot()
	for _, v := range violations {
		t.Errorf("CSP violation: %s", v)
	}
	for _, p := range problems {
		t.Errorf("the page reported: %s", p)
	}
	// Every request went to the server; the fonts and icons of GraphiQL's
	// stylesheet are data: URLs, which are not fetched from anywhere.
	local, bearer := 0, 0

	for _, r := range requests {
		switch {
		case strings.HasPrefix(r.URL, p.base+"/"):
			local++
			if r.Method == http.MethodPost && r.Headers["Authorization"] == "Bearer "+session.AccessToken {
				bearer++
			}
		case strings.HasPrefix(r.URL, "data:"):
		default:
			t.Errorf("a request left the server: %s %s", r.Method, r.URL)
		}
	}
	// The page, its six assets, introspection, the mutation and the query.
	if local < 10 {
		t.Errorf("%d requests to the server, want at least 10", local)
	}
	if bearer != 2 {
		t.Errorf("%d requests carried the typed token, want 2 (the mutation and the query)", bearer)
	}
}

// waitText waits until the element sel holds text.
func waitText(sel, text string) chromedp.Action {
	js := fmt.Sprintf(`(document.querySelector(%q) || {innerText: ''}).innerText.includes(%q)`, sel, text)
	return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(20*time.Second))
}

// editorValue is the text of the CodeMirror editor sel.
func editorValue(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var v string
	js := fmt.Sprintf(`document.querySelector(%q).CodeMirror.getValue()`, sel)
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &v)); err != nil {
		t.Fatalf("reading %s: %v", sel, err)
	}
	return v
}

// execute puts query in the query editor, runs it with the execute button
// and returns the response editor's JSON, compacted.
func execute(t *testing.T, ctx context.Context, queryEditor, response, query string) string {
	t.Helper()
	clear := fmt.Sprintf(`document.querySelector(%q).CodeMirror.setValue('')`, response)
	set := fmt.Sprintf(`document.querySelector(%q).CodeMirror.setValue(%s)`, queryEditor, jsString(query))
	filled := fmt.Sprintf(`document.querySelector(%q).CodeMirror.getValue().trim().endsWith('}')`, response)
	err := chromedp.Run(ctx,
		chromedp.Evaluate(clear, nil),
		chromedp.Evaluate(set, nil),
		chromedp.Click(".graphiql-execute-button", chromedp.NodeVisible),
		chromedp.Poll(filled, nil, chromedp.WithPollingTimeout(20*time.Second)),
	)
	if err != nil {
		t.Fatalf("running %s: %v", query, err)
	}
	raw := editorValue(t, ctx, response)
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(raw)); err != nil {
		t.Fatalf("the response editor holds no JSON: %v\n%s", err, raw)
	}
	return buf.String()
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
