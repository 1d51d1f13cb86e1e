package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// client sends requests to the server, over loopback connections only.
type client struct {
	base string
	http *http.Client
}

func newClient(o options) *client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			if tcp, ok := conn.RemoteAddr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
				conn.Close()
				return nil, fmt.Errorf("%s is not a loopback address", conn.RemoteAddr())
			}
			return conn, nil
		},
		MaxIdleConnsPerHost: o.concurrency,
		DisableCompression:  true,
	}
	return &client{base: strings.TrimRight(o.url, "/"), http: &http.Client{Transport: transport, Timeout: o.timeout}}
}

// send sends one request and reads the answer to its end, keeping at most
// keep bytes of it. It returns the status and the length of the body.
func (c *client) send(ctx context.Context, method, path, token string, body []byte, keep int) (int, int64, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, 0, nil, err
	}
	defer res.Body.Close()
	var kept bytes.Buffer
	n, err := io.Copy(io.MultiWriter(&limited{&kept, keep}, io.Discard), res.Body)
	return res.StatusCode, n, kept.Bytes(), err
}

// limited keeps the first n bytes written to it.
type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// body returns n bytes of text for an article or a post.
func body(n int, seed int) string {
	const words = "memory load of the example server, written once and read many times. "
	s := strings.Repeat(words, n/len(words)+1)[:n]
	return strconv.Itoa(seed) + s[len(strconv.Itoa(seed)):]
}

func seedArticles(ctx context.Context, c *client, o options) error {
	for i := range o.n {
		in, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("Large article %d", i), "body": body(o.size, i), "published": true})
		status, _, answer, err := c.send(ctx, http.MethodPost, "/api/articles", o.token, in, 300)
		if err != nil || status != http.StatusCreated {
			return fmt.Errorf("creating article %d: status %d, %v: %s", i, status, err, answer)
		}
	}
	return nil
}

func seedPosts(ctx context.Context, c *client, o options) error {
	const mutation = `mutation($in: CreatePostInput!) { createPost(input: $in) { id } }`
	for i := range o.n {
		in, _ := json.Marshal(map[string]any{"query": mutation, "variables": map[string]any{
			"in": map[string]any{"title": fmt.Sprintf("Post %d", i), "body": body(o.size, i)}}})
		status, _, answer, err := c.send(ctx, http.MethodPost, "/api/graphql", o.token, in, 300)
		if err != nil || status != http.StatusOK || bytes.Contains(answer, []byte(`"errors"`)) {
			return fmt.Errorf("creating post %d: status %d, %v: %s", i, status, err, answer)
		}
	}
	return nil
}

// request returns the request of a load.
func request(o options, load string) (method, path string, in []byte) {
	if load == "rest" {
		return http.MethodGet, "/api/articles?per_page=" + strconv.Itoa(o.perPage), nil
	}
	var q strings.Builder
	q.WriteString("{")
	for i := range o.aliases {
		fmt.Fprintf(&q, " a%d: posts(first: %d) { body }", i, o.first)
	}
	q.WriteString(" }")
	in, _ = json.Marshal(map[string]string{"query": q.String()})
	return http.MethodPost, "/api/graphql", in
}

// outcome sums up the answers of a load.
type outcome struct {
	mu       sync.Mutex
	statuses map[string]int // "200", "503", or the transport error
	bytes    []int64
	example  map[string]string // the start of one answer per status
}

func (r *outcome) add(status int, n int64, start []byte, err error) {
	key := strconv.Itoa(status)
	if err != nil {
		key = "error (" + err.Error() + ")"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.statuses[key]++
	r.bytes = append(r.bytes, n)
	if _, ok := r.example[key]; !ok {
		r.example[key] = string(start)
	}
}

func (r *outcome) String() string {
	keys := make([]string, 0, len(r.statuses))
	for k := range r.statuses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, r.statuses[k]))
	}
	sort.Slice(r.bytes, func(i, j int) bool { return r.bytes[i] < r.bytes[j] })
	return fmt.Sprintf("answers %s; bytes min %d max %d", strings.Join(parts, ", "), r.bytes[0], r.bytes[len(r.bytes)-1])
}

// load sends the requests of a load and returns how they went.
func load(ctx context.Context, c *client, o options, kind string) *outcome {
	method, path, in := request(o, kind)
	out := &outcome{statuses: map[string]int{}, example: map[string]string{}}
	var wg sync.WaitGroup
	for range o.concurrency {
		wg.Go(func() {
			for range o.rounds {
				status, n, start, err := c.send(ctx, method, path, "", in, 200)
				out.add(status, n, start, err)
			}
		})
	}
	wg.Wait()
	return out
}
