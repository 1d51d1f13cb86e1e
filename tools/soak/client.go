package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxAnswerBytes caps what soak reads of one answer body: more than the
// largest page of the list (the articles API's MaxListBytes, 16 MiB), which
// the checks read when large articles were seeded (see seed.go).
const maxAnswerBytes = 20 << 20

// client sends requests to the server, over loopback connections only.
type client struct {
	base      string
	timeout   time.Duration
	transport *http.Transport
	http      *http.Client
}

func newClient(base string, timeout time.Duration, concurrency int) *client {
	return newClientAt(base, timeout, concurrency, nil)
}

// newClientAt is newClient with connections dialled from the local address
// local (nil: the system's choice).
func newClientAt(base string, timeout time.Duration, concurrency int, local *net.TCPAddr) *client {
	dialer := &net.Dialer{Timeout: timeout}
	if local != nil {
		dialer.LocalAddr = local
	}
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
		MaxIdleConns:        2 * concurrency,
		MaxIdleConnsPerHost: 2 * concurrency,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	return &client{
		base:      base,
		timeout:   timeout,
		transport: transport,
		http: &http.Client{
			Transport: transport,
			// An answer is checked as it is: a redirect would be a surprise.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// closeIdle closes the kept-alive connections, so that the server can
// release what it holds for them before its resources are read.
func (c *client) closeIdle() { c.transport.CloseIdleConnections() }

// request is one request to send.
type request struct {
	method      string
	path        string // with the query string
	body        []byte
	contentType string
	token       string // the bearer token, or ""
	rawAuth     string // an Authorization header sent as it is, when token is ""

	idempotencyKey string // sent as the Idempotency-Key header, when not ""
}

// answer is what came back: a status and body, or a transport error.
type answer struct {
	status int // 0 on a transport error
	header http.Header
	body   []byte
	err    error
	took   time.Duration
}

func (a answer) String() string {
	if a.err != nil {
		return "transport error: " + a.err.Error()
	}
	body := string(a.body)
	if len(body) > 200 {
		body = body[:200] + "…"
	}
	return strconv.Itoa(a.status) + " " + body
}

// do sends req within the client's timeout and reads the answer. It does
// not take the caller's context: a request under way at the end of a load
// phase runs to its end, so that its outcome is known.
func (c *client) do(req request) answer {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	r, err := http.NewRequestWithContext(ctx, req.method, c.base+req.path, body)
	if err != nil {
		return answer{err: err}
	}
	if req.contentType != "" {
		r.Header.Set("Content-Type", req.contentType)
	}
	switch {
	case req.token != "":
		r.Header.Set("Authorization", "Bearer "+req.token)
	case req.rawAuth != "":
		r.Header.Set("Authorization", req.rawAuth)
	}
	if req.idempotencyKey != "" {
		r.Header.Set("Idempotency-Key", req.idempotencyKey)
	}
	start := time.Now()
	resp, err := c.http.Do(r)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	took := time.Since(start)
	if err != nil {
		return answer{err: fmt.Errorf("reading the body of a %d: %w", resp.StatusCode, err), took: took}
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: b, took: took}
}

// graphQLBody encodes a GraphQL request.
func graphQLBody(query string, variables map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"query": query, "variables": variables})
	if err != nil {
		panic(err) // only strings, numbers and maps of them: cannot fail
	}
	return b
}

// gqlResult is the body of a GraphQL answer.
type gqlResult struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// user is who a client acts for.
type user struct {
	id    int64
	token string
}

// login trades credentials for a token.
func (c *client) login(cred credentials) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": cred.email, "password": cred.password})
	a := c.do(request{method: http.MethodPost, path: "/api/auth/login", body: body, contentType: "application/json"})
	if a.err != nil {
		return "", fmt.Errorf("logging in as %s: %w", cred.email, a.err)
	}
	var got struct {
		AccessToken string `json:"access_token"`
	}
	if a.status != http.StatusOK || json.Unmarshal(a.body, &got) != nil || got.AccessToken == "" {
		return "", fmt.Errorf("logging in as %s: %s", cred.email, a)
	}
	return got.AccessToken, nil
}

// tokenSubject reads the user id from a token's sub claim, without
// verifying it (the server does): soak needs it to check the user_id of
// the articles it creates.
func tokenSubject(token string) (int64, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return 0, fmt.Errorf("token %.12s…: not a JWT", token)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return 0, fmt.Errorf("token %.12s…: payload: %w", token, err)
	}
	var claims struct {
		Sub json.RawMessage `json:"sub"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return 0, fmt.Errorf("token %.12s…: payload: %w", token, err)
	}
	id, err := strconv.ParseInt(strings.Trim(string(claims.Sub), `"`), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("token %.12s…: sub %s is not a user id", token, claims.Sub)
	}
	return id, nil
}
