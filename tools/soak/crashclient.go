package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// keyedCreate is one create of the crash mode, from its first attempt to
// its answer.
type keyedCreate struct {
	post      bool   // a GraphQL createPost; else a REST article
	title     string // unique to this create
	key       string // its Idempotency-Key ("" without -keys)
	attempts  int
	transport int // attempts that ended in a transport error
	status5xx int // attempts answered with a 5xx
	inUse     int // attempts answered 409 with Retry-After: the key was held

	acked    bool   // answered 201 (REST) or with the post (GraphQL)
	replayed bool   // the answer carried Idempotent-Replayed: true
	id       string // the id acknowledged
	other    string // an answer below 500 that is not an acknowledgement
	internal bool   // other is a GraphQL INTERNAL_SERVER_ERROR
	gaveUp   bool   // no answer below 500 within the retry budget
}

func (k *keyedCreate) retries() int { return max(k.attempts-1, 0) }

// crashClient sends creates one after another, articles and posts in
// turn, each retried until it gets an answer below 500.
type crashClient struct {
	name    string // the start of its titles
	c       *client
	user    user
	keys    bool
	odd     bool // starts with a post
	rng     *rand.Rand
	seq     int
	creates []*keyedCreate
}

// run creates until load ends. The create under way then is finished
// (across restarts of the server), unless ctx ends too.
func (cl *crashClient) run(load, ctx context.Context) {
	for load.Err() == nil {
		cl.seq++
		k := &keyedCreate{post: (cl.seq%2 == 1) == cl.odd, title: cl.name + " " + strconv.Itoa(cl.seq)}
		if cl.keys {
			k.key = randomHex(16)
		}
		cl.send(ctx, k)
		cl.creates = append(cl.creates, k)
	}
}

// send sends k's request until it gets an answer below 500 other than a
// 409 with Retry-After (the key is held: by the attempt a killed server
// was serving, until its lease ends), with the same key and body every
// time, backing off between attempts.
func (cl *crashClient) send(ctx context.Context, k *keyedCreate) {
	req := cl.request(k)
	backoff := 20 * time.Millisecond
	deadline := time.Now().Add(retryBudget)
	for {
		k.attempts++
		a := cl.c.do(req)
		switch {
		case a.err != nil:
			k.transport++
		case a.status >= 500:
			k.status5xx++
		case a.status == http.StatusConflict && a.header.Get("Retry-After") != "":
			k.inUse++
		default:
			k.settle(a)
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			k.gaveUp = true
			return
		}
		sleep(ctx, backoff/2+time.Duration(cl.rng.Int64N(int64(backoff)))) // 0.5 to 1.5 backoffs
		backoff = min(2*backoff, time.Second)
	}
}

// request is k's request: a published article, or a createPost mutation.
func (cl *crashClient) request(k *keyedCreate) request {
	var req request
	if k.post {
		req = graphql(`mutation ($in: CreatePostInput!) { createPost(input: $in) { id title } }`,
			map[string]any{"in": map[string]any{"title": k.title, "body": "Written by the crash soak."}}, cl.user.token)
	} else {
		body, _ := json.Marshal(map[string]any{"title": k.title, "body": "Written by the crash soak.", "published": true})
		req = request{method: http.MethodPost, path: "/api/articles", body: body, contentType: "application/json",
			token: cl.user.token}
	}
	req.idempotencyKey = k.key
	return req
}

// settle reads the answer below 500 that ends k.
func (k *keyedCreate) settle(a answer) {
	k.replayed = a.header.Get("Idempotent-Replayed") == "true"
	if k.post {
		k.settlePost(a)
		return
	}
	var got struct{ Data articleFields }
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &got) != nil || got.Data.Title != k.title || got.Data.ID <= 0 {
		k.other = a.String()
		return
	}
	k.acked, k.id = true, strconv.FormatInt(got.Data.ID, 10)
}

func (k *keyedCreate) settlePost(a answer) {
	var res gqlResult
	var got postFields
	if a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || len(res.Errors) > 0 ||
		json.Unmarshal(res.Data["createPost"], &got) != nil || got.Title != k.title || got.ID == "" {
		k.other = a.String()
		for _, e := range res.Errors {
			k.internal = k.internal || e.Extensions["code"] == "INTERNAL_SERVER_ERROR"
		}
		return
	}
	k.acked, k.id = true, got.ID
}
