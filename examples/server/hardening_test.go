package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestIdempotencyKeys retries writes with an Idempotency-Key on the REST
// and GraphQL APIs of the real server: a retry gets the first answer again
// and writes nothing; the key with another request is a 422.
func TestIdempotencyKeys(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			p := db.start(t)
			rest := func(body, key string) response {
				return send(t, http.MethodPost, p.base+"/api/articles", body,
					"Content-Type", "application/json", "Authorization", "Bearer "+token, "Idempotency-Key", key)
			}
			first := rest(`{"title":"Once","body":"Text","published":true}`, "article-1")
			if first.status != http.StatusCreated || first.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("first create: %d %s", first.status, first.body)
			}
			again := rest(`{"title":"Once","body":"Text","published":true}`, "article-1")
			again.check(t, http.StatusCreated, timestamps.ReplaceAllString(first.body, `"<time>"`),
				"Idempotent-Replayed", "true", "Location", first.header.Get("Location"))
			rest(`{"title":"Twice","body":"Text","published":true}`, "article-1").check(t, http.StatusUnprocessableEntity,
				`{"message":"This Idempotency-Key was already used with a different request."}`)
			list := send(t, http.MethodGet, p.base+"/api/articles", "")
			var page struct{ Meta struct{ Total int } }
			list.decode(t, &page)
			if page.Meta.Total != 1 {
				t.Errorf("after a create and its retry there are %d articles, want 1", page.Meta.Total)
			}

			gql := func(title, key string) response {
				body, _ := json.Marshal(map[string]any{
					"query":     `mutation ($in: CreatePostInput!) { createPost(input: $in) { id title } }`,
					"variables": map[string]any{"in": map[string]any{"title": title, "body": "Text"}},
				})
				return send(t, http.MethodPost, p.base+"/api/graphql", string(body),
					"Content-Type", "application/json", "Authorization", "Bearer "+token, "Idempotency-Key", key)
			}
			gql("Post once", "post-1").check(t, http.StatusOK, `{"data":{"createPost":{"id":"1","title":"Post once"}}}`)
			gql("Post once", "post-1").check(t, http.StatusOK, `{"data":{"createPost":{"id":"1","title":"Post once"}}}`,
				"Idempotent-Replayed", "true")
			gql("Post twice", "post-1").check(t, http.StatusUnprocessableEntity,
				`{"errors":[{"message":"This Idempotency-Key was already used with a different request.","extensions":{"code":"IDEMPOTENCY_KEY_REUSED","status":422}}]}`)
			gql("Post twice", "").check(t, http.StatusBadRequest,
				`{"errors":[{"message":"The Idempotency-Key header must be one value of 1 to 255 printable ASCII characters.","extensions":{"code":"BAD_USER_INPUT"}}]}`)
			send(t, http.MethodPost, p.base+"/api/graphql", `{"query":"{ posts { title } }"}`, "Content-Type", "application/json").
				check(t, http.StatusOK, `{"data":{"posts":[{"title":"Post once"}]}}`)
		})
	}
}

// TestNULInText: U+0000 cannot be stored in PostgreSQL text and would be
// stored as sent in SQLite; both refuse it with a validation error naming
// the field, and store nothing.
func TestNULInText(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			p := db.start(t)
			body, _ := json.Marshal(map[string]any{
				"query":     `mutation ($in: CreatePostInput!) { createPost(input: $in) { id } }`,
				"variables": map[string]any{"in": map[string]any{"title": "A\x00B", "body": "x\x00", "tags": []string{"ok", "t\x00"}}},
			})
			send(t, http.MethodPost, p.base+"/api/graphql", string(body),
				"Content-Type", "application/json", "Authorization", "Bearer "+token).
				check(t, http.StatusOK, `{"data":null,"errors":[{"message":"The title field must not contain null characters. (and 2 more errors)","locations":[{"line":1,"column":36}],"path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.body":["The body field must not contain null characters."],"input.tags.1":["The tags.1 field must not contain null characters."],"input.title":["The title field must not contain null characters."]}}}]}`)
			send(t, http.MethodPost, p.base+"/api/articles", `{"title":"A\u0000B","body":"Text"}`,
				"Content-Type", "application/json", "Authorization", "Bearer "+token).
				check(t, http.StatusUnprocessableEntity, `{"message":"The title field must not contain null characters.","errors":{"title":["The title field must not contain null characters."]}}`)
			send(t, http.MethodPost, p.base+"/api/graphql", `{"query":"{ posts { id } }"}`, "Content-Type", "application/json").
				check(t, http.StatusOK, `{"data":{"posts":[]}}`)
			send(t, http.MethodGet, p.base+"/api/articles", "").check(t, http.StatusOK,
				`{"data":[],"links":{"first":"`+p.base+`/api/articles?page=1&per_page=15","last":"`+p.base+`/api/articles?page=1&per_page=15","prev":null,"next":null},"meta":{"current_page":1,"from":null,"last_page":1,"path":"`+p.base+`/api/articles","per_page":15,"to":null,"total":0}}`)
		})
	}
}

// TestIdleServerGivesMemoryBack: the server logs its soft memory limit at
// start and, once no request has run for MEMORY_IDLE_RELEASE, returns its
// free heap to the system (once per idle spell).
func TestIdleServerGivesMemoryBack(t *testing.T) {
	db := sqliteDatabase(t)
	p := db.start(t, "MEMORY_IDLE_RELEASE=300ms", "MEMORY_LIMIT=300MiB")
	if _, ok, _ := p.find(func(l logLine) bool { return l.message() == "memory limit: 300 MiB" }); !ok {
		t.Errorf("no log line %q in\n%s", "memory limit: 300 MiB", p.log())
	}
	send(t, http.MethodGet, p.base+"/healthz", "").check(t, http.StatusOK, `{"status":"ok"}`)
	p.waitFor(t, "memory given back", func(l logLine) bool { return l.message() == "idle: memory given back" })
}

// TestAppURL: with APP_URL, links and Location start with it whatever Host
// the request names.
func TestAppURL(t *testing.T) {
	db := sqliteDatabase(t)
	_, token := addUser(t, db, "Ada", "correct horse")
	p := db.start(t, "APP_URL=https://api.example.com/")
	req, err := http.NewRequest(http.MethodPost, p.base+"/api/articles", strings.NewReader(`{"title":"T","body":"B","published":true}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Location"); resp.StatusCode != http.StatusCreated || got != "https://api.example.com/api/articles/1" {
		t.Errorf("create: %d, Location %q; want 201 and https://api.example.com/api/articles/1", resp.StatusCode, got)
	}
	req, err = http.NewRequest(http.MethodGet, p.base+"/api/articles?per_page=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"path":"https://api.example.com/api/articles"`) || strings.Contains(string(body), "evil") {
		t.Errorf("list: %s, want links under APP_URL", body)
	}
}
