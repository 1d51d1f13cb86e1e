package main

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/sqlite"
)

// On the real binary: idempotency keys
// never deadlock a small pool, never hold SQLite's writer while a request
// waits, and record only what a retry must replay.

// sqlDB opens db's database for the test itself: the SQLite file, or the
// test's PostgreSQL schema.
func (db testDatabase) sqlDB(t *testing.T) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", db.url
	if db.kind == "sqlite" {
		driver, dsn = "sqlite", sqlite.DSN(strings.TrimPrefix(db.url, "sqlite:"))
	}
	conn, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// queryInt runs a query of one integer on conn.
func queryInt(t *testing.T, conn *sql.DB, query string) int64 {
	t.Helper()
	var n int64
	if err := conn.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// seedPostsOf writes n posts of user 1 with bodies of size bytes each,
// straight into the database (the GraphQL endpoint takes requests of at
// most 20,000 bytes).
func seedPostsOf(t *testing.T, conn *sql.DB, n, size int) {
	t.Helper()
	body := strings.Repeat("x", size)
	for i := range n {
		created := time.Date(2025, 1, 2, 3, 4, i, 0, time.UTC).Format("2006-01-02 15:04:05.000000+00:00")
		if _, err := conn.Exec(`INSERT INTO posts (user_id, title, body, created_at) VALUES (1, $1, $2, $3)`,
			fmt.Sprint("Seeded ", i), body, created); err != nil {
			t.Fatal(err)
		}
	}
}

// createPostBody is a createPost mutation of title selecting the author.
func createPostBody(title string) string {
	body, _ := json.Marshal(map[string]any{
		"query":     `mutation ($in: CreatePostInput!) { createPost(input: $in) { id title author { name } } }`,
		"variables": map[string]any{"in": map[string]any{"title": title, "body": "Text"}},
	})
	return string(body)
}

// createPostKeyed sends createPostBody(title) as token's, with an
// Idempotency-Key when key is not "".
func createPostKeyed(base, token, title, key string) (response, error) {
	headers := []string{"Content-Type", "application/json", "Authorization", "Bearer " + token}
	if key != "" {
		headers = append(headers, "Idempotency-Key", key)
	}
	return trySend(http.MethodPost, base+"/api/graphql", createPostBody(title), headers...)
}

// createdPost reads the post a createPostBody answer holds, "" when it
// holds none.
func createdPost(r response) (id, title, author string) {
	var got struct {
		Data struct {
			CreatePost struct {
				ID, Title string
				Author    struct{ Name string }
			}
		}
		Errors []any
	}
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil || len(got.Errors) > 0 {
		return "", "", ""
	}
	p := got.Data.CreatePost
	return p.ID, p.Title, p.Author.Name
}

// checkTitlesOnce checks that the posts table holds each title once and
// nothing else.
func checkTitlesOnce(t *testing.T, conn *sql.DB, titles []string) {
	t.Helper()
	rows, err := conn.Query(`SELECT title FROM posts`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]int{}
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		seen[title]++
	}
	for _, title := range titles {
		if seen[title] != 1 {
			t.Errorf("post %q is stored %d times, want once", title, seen[title])
		}
		delete(seen, title)
	}
	if len(seen) > 0 {
		t.Errorf("posts nobody acknowledged: %v", seen)
	}
}

// inUseBody is the answer to a GraphQL request whose key another request
// holds.
const inUseBody = `{"errors":[{"message":"A request with this Idempotency-Key is still in progress; try again shortly.","extensions":{"code":"IDEMPOTENCY_KEY_IN_USE","status":409}}]}`

// TestIdempotencySmallPools: on PostgreSQL with pools of 1 to 4
// connections, 8 keyed createPost mutations that read their author at once
// all answer, and /healthz and anonymous queries answer meanwhile. Each
// request held its claim's connection while its resolver waited for
// another one, so that they all waited forever.
func TestIdempotencySmallPools(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server per pool size")
	}
	for conns := 1; conns <= 4; conns++ {
		t.Run(fmt.Sprint("pool_max_conns=", conns), func(t *testing.T) {
			db := postgresDatabase(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			p := db.start(t, "DATABASE_URL="+withQueryParam(t, db.url, "pool_max_conns", strconv.Itoa(conns)))

			const n = 8
			var (
				wg      sync.WaitGroup
				answers [n]response
				errs    [n]error
			)
			for i := range n {
				wg.Go(func() {
					answers[i], errs[i] = createPostKeyed(p.base, token, fmt.Sprint("Post ", i), fmt.Sprint("post-", i))
				})
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			for probing := true; probing; {
				select {
				case <-done:
					probing = false
				default:
				}
				r, err := trySend(http.MethodGet, p.base+"/healthz", "")
				if err != nil || r.status != http.StatusOK {
					t.Fatalf("/healthz beside keyed writes: %+v, %v", r, err)
				}
				r, err = trySend(http.MethodPost, p.base+"/api/graphql", `{"query":"{ posts(first: 1) { id } }"}`, "Content-Type", "application/json")
				if err != nil || r.status != http.StatusOK {
					t.Fatalf("an anonymous query beside keyed writes: %+v, %v", r, err)
				}
			}
			titles := make([]string, n)
			for i := range n {
				titles[i] = fmt.Sprint("Post ", i)
				id, title, author := createdPost(answers[i])
				if errs[i] != nil || id == "" || title != titles[i] || author != "Ada" || answers[i].header.Get("Idempotent-Replayed") != "" {
					t.Fatalf("keyed create %d: %+v, %v; want its post, by Ada", i, answers[i], errs[i])
				}
				again, err := createPostKeyed(p.base, token, titles[i], fmt.Sprint("post-", i))
				if err != nil || again.body != answers[i].body || again.header.Get("Idempotent-Replayed") != "true" {
					t.Errorf("retry %d: %+v, %v; want %s replayed", i, again, err, answers[i].body)
				}
			}
			checkTitlesOnce(t, db.sqlDB(t), titles)
		})
	}
}

// TestIdempotencyRecordsOnlyWrites: keyed POSTs of GraphQL queries, and a
// refused mutation, are answered without being recorded: five keyed
// queries of 10 MB answers once stored 50 MB for a day.
func TestIdempotencyRecordsOnlyWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MB of answers")
	}
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			conn := db.sqlDB(t)
			seedPostsOf(t, conn, 50, 200_000)
			p := db.start(t)
			auth := []string{"Content-Type", "application/json", "Authorization", "Bearer " + token}
			query := `{"query":"{ posts(first: 50) { id title body createdAt author { name } } }"}`
			for i := range 5 {
				for try := range 2 {
					r, err := trySend(http.MethodPost, p.base+"/api/graphql", query, append(auth, "Idempotency-Key", fmt.Sprint("query-", i))...)
					if err != nil || r.status != http.StatusOK || len(r.body) < 50*200_000 || r.header.Get("Idempotent-Replayed") != "" {
						t.Fatalf("keyed query %d, try %d: %d, %d bytes, replayed %q, %v; want a fresh 200 of 10 MB",
							i, try, r.status, len(r.body), r.header.Get("Idempotent-Replayed"), err)
					}
				}
			}
			refused := createPostBody("")
			for try := range 2 {
				r, err := trySend(http.MethodPost, p.base+"/api/graphql", refused, append(auth, "Idempotency-Key", "refused")...)
				if err != nil || r.status != http.StatusOK || !strings.Contains(r.body, "VALIDATION_FAILED") || r.header.Get("Idempotent-Replayed") != "" {
					t.Errorf("a refused keyed mutation, try %d: %+v, %v; want a fresh VALIDATION_FAILED", try, r, err)
				}
			}
			if n := queryInt(t, conn, `SELECT count(*) FROM idempotency_keys`); n != 0 {
				t.Errorf("%d keys recorded for reads and refusals, want none", n)
			}
			created, err := createPostKeyed(p.base, token, "Written", "write")
			if id, _, _ := createdPost(created); err != nil || id == "" {
				t.Fatalf("a keyed create: %+v, %v", created, err)
			}
			if n := queryInt(t, conn, `SELECT count(*) FROM idempotency_keys`); n != 1 {
				t.Errorf("%d keys recorded after one keyed write, want 1", n)
			}
		})
	}
}

// TestIdempotencyOneKeyAtOnce: requests sent at once with one key, to two
// processes on one database, write once; each is answered with the post,
// fresh once and else replayed, or 409 IDEMPOTENCY_KEY_IN_USE with
// Retry-After while the first is in flight.
func TestIdempotencyOneKeyAtOnce(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			processes := []*process{db.start(t), db.start(t)}
			const rounds, n = 10, 8
			var titles []string
			inUse := 0
			for round := range rounds {
				title := fmt.Sprint("Same ", round)
				titles = append(titles, title)
				var (
					wg      sync.WaitGroup
					answers [n]response
					errs    [n]error
				)
				for i := range n {
					base := processes[i%2].base
					wg.Go(func() { answers[i], errs[i] = createPostKeyed(base, token, title, fmt.Sprint("same-", round)) })
				}
				wg.Wait()
				var fresh []string
				for i, r := range answers {
					switch {
					case errs[i] != nil:
						t.Fatalf("round %d, request %d: %v", round, i, errs[i])
					case r.status == http.StatusConflict && r.body == inUseBody && r.header.Get("Retry-After") == "1":
						inUse++
					case r.status != http.StatusOK || createdPostTitle(r) != title:
						t.Errorf("round %d, request %d: %d %s; want the post or %s", round, i, r.status, r.body, inUseBody)
					case r.header.Get("Idempotent-Replayed") == "":
						fresh = append(fresh, r.body)
					}
				}
				if len(fresh) != 1 {
					t.Errorf("round %d: %d fresh answers, want 1: %v", round, len(fresh), fresh)
				}
			}
			t.Logf("%d of %d requests answered 409", inUse, rounds*n)
			checkTitlesOnce(t, db.sqlDB(t), titles)
		})
	}
}

func createdPostTitle(r response) string {
	_, title, _ := createdPost(r)
	return title
}

// TestIdempotencyKeyedBesideUnkeyedSQLite: keyed and un-keyed createPost
// mutations at once both go at their usual pace on SQLite. The posts had
// a writer connection of their own beside the one claims held, and the
// two stalled each other on SQLite's write lock: 63 writes in 10 s, some
// answered 500 SQLITE_BUSY, others 503.
func TestIdempotencyKeyedBesideUnkeyedSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("writes for a few seconds")
	}
	db := sqliteDatabase(t)
	_, token := addUser(t, db, "Ada", "correct horse")
	p := db.start(t)
	const window, workers = 3 * time.Second, 8
	deadline := time.Now().Add(window)
	var (
		wg             sync.WaitGroup
		keyed, unkeyed atomic.Int64
		mu             sync.Mutex
		failures       []string
		keyedTitles    []string
		unkeyedTitles  []string
		titlesOf       = map[bool]*[]string{true: &keyedTitles, false: &unkeyedTitles}
		countOf        = map[bool]*atomic.Int64{true: &keyed, false: &unkeyed}
		seq            atomic.Int64
	)
	for w := range 2 * workers {
		withKey := w%2 == 0
		wg.Go(func() {
			for time.Now().Before(deadline) {
				title := fmt.Sprint("Post ", seq.Add(1))
				key := ""
				if withKey {
					key = "k-" + title
				}
				r, err := createPostKeyed(p.base, token, title, key)
				mu.Lock()
				if createdPostTitle(r) != title || err != nil {
					failures = append(failures, fmt.Sprintf("keyed %t: %d %s %v", withKey, r.status, r.body, err))
				} else {
					*titlesOf[withKey] = append(*titlesOf[withKey], title)
					countOf[withKey].Add(1)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("in %v: %d keyed and %d un-keyed creates", window, keyed.Load(), unkeyed.Load())
	if len(failures) > 0 {
		t.Errorf("%d creates failed, the first: %s", len(failures), failures[0])
	}
	// The old code made about 20 writes in 3 s, both kinds together.
	const floor = 150
	if keyed.Load() < floor || unkeyed.Load() < floor {
		t.Errorf("%d keyed and %d un-keyed creates in %v, want at least %d of each", keyed.Load(), unkeyed.Load(), window, floor)
	}
	checkTitlesOnce(t, db.sqlDB(t), append(keyedTitles, unkeyedTitles...))
}

// clientConn connects to addr from the loopback address from: the
// server's response budget counts each address as a client of its own.
func clientConn(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: faultTimeout}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// postOn writes a POST of a JSON body to path on conn; headers are name,
// value pairs.
func postOn(t *testing.T, conn net.Conn, path, body string, headers ...string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n",
		path, conn.RemoteAddr(), len(body))
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n" + body)
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
}

// readAnswer reads the answer to a request written with postOn.
func readAnswer(conn net.Conn) (response, error) {
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, err
}

// TestIdempotencyBudgetWaitHoldsNoWriterSQLite: a keyed mutation waiting
// for its share of the GraphQL response budget stalls no login and no
// create. Its claim held SQLite's single writer connection for the whole
// wait (up to 10 s), and every write queued behind it.
func TestIdempotencyBudgetWaitHoldsNoWriterSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the response budget for a few seconds")
	}
	db := sqliteDatabase(t)
	_, token := addUser(t, db, "Ada", "correct horse")
	seedPostsOf(t, db.sqlDB(t), 15, 1<<20)
	// Long waits, so that the budget stays full for the whole test: no
	// client is cut off for reading nothing, no wait for room ends.
	p := db.start(t, "GRAPHQL_STALL_TIMEOUT=60s", "GRAPHQL_RESPONSE_BUDGET_WAIT=30s")

	// One client asks for answers of 15 MiB on connections it never reads
	// from: the first takes what one client may hold of the budget, the
	// others wait for room, each holding a first share, and the client
	// has no room left for another request.
	const hogClient = "127.0.0.2"
	var hogs []net.Conn
	for range 9 {
		hog := clientConn(t, hogClient, p.addr)
		hogs = append(hogs, hog)
		if err := hog.(*net.TCPConn).SetReadBuffer(4096); err != nil {
			t.Fatal(err)
		}
		postOn(t, hog, "/api/graphql", `{"query":"{ posts(first: 15) { body } }"}`)
	}
	full := false
	for deadline := time.Now().Add(10 * time.Second); !full && time.Now().Before(deadline); {
		probe := clientConn(t, hogClient, p.addr)
		postOn(t, probe, "/api/graphql", `{"query":"{ posts(first: 1) { id } }"}`)
		_ = probe.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		_, err := readAnswer(probe)
		full = errors.Is(err, os.ErrDeadlineExceeded) // it waits for a share
	}
	if !full {
		t.Fatal("the response budget had room for the client all along")
	}

	mutation := clientConn(t, hogClient, p.addr)
	postOn(t, mutation, "/api/graphql", createPostBody("Waited"), "Authorization", "Bearer "+token, "Idempotency-Key", "waits")
	waiting := make(chan response, 1)
	go func() {
		r, err := readAnswer(mutation)
		if err != nil {
			r.body = err.Error()
		}
		waiting <- r
	}()
	time.Sleep(200 * time.Millisecond) // it now waits for a share

	// A bound of 3s per write (a login hashes a password; a loaded CI
	// host): the writes waited for the mutation, up to 30s.
	const window, bound = 2 * time.Second, 3 * time.Second
	writes := 0
	for deadline := time.Now().Add(window); time.Now().Before(deadline); writes++ {
		start := time.Now()
		var r response
		var err error
		if writes%2 == 0 {
			r, err = trySend(http.MethodPost, p.base+"/api/articles", fmt.Sprintf(`{"title":"Beside %d","body":"Text"}`, writes),
				"Content-Type", "application/json", "Authorization", "Bearer "+token)
		} else {
			r, err = trySend(http.MethodPost, p.base+"/api/auth/login", `{"email":"ada@example.com","password":"correct horse"}`,
				"Content-Type", "application/json")
		}
		took := time.Since(start)
		if err != nil || (r.status != http.StatusCreated && r.status != http.StatusOK) || took > bound {
			t.Fatalf("write %d beside a keyed mutation waiting for the budget: %d %s, %v, in %v (want it within %v)",
				writes, r.status, r.body, err, took.Round(time.Millisecond), bound)
		}
	}
	select {
	case r := <-waiting:
		t.Fatalf("the keyed create did not wait for the budget: %d %s", r.status, r.body)
	default:
	}
	t.Logf("%d logins and creates in %v beside the waiting mutation", writes, window)
	for _, hog := range hogs {
		hog.Close()
	}
	select {
	case r := <-waiting:
		if createdPostTitle(r) != "Waited" {
			t.Errorf("the keyed create, once the budget had room: %d %s", r.status, r.body)
		}
	case <-time.After(faultTimeout):
		t.Fatal("the keyed create did not answer once the budget had room")
	}
}
