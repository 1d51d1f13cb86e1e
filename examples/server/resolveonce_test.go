package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestLargeAnswerResolvesOnce traces, on the real binary, a query whose
// answer (50 posts of 18,000-byte bodies, about 900 KB) outgrows the
// 256 KiB share every answer starts with. Its resolver runs once and its
// answer is whole: the client's trace holds one Query.posts span and one
// execute phase. Before, the query ran a second time in a larger share,
// and its resolvers hit the database twice: two spans of each.
func TestLargeAnswerResolvesOnce(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			p, stdout := db.launchWithStdout(t, "OTEL_TRACES_EXPORTER=console")
			createLargePosts(t, p.base, token)

			r := send(t, http.MethodPost, p.base+"/api/graphql", `{"query":"query Large { posts(first: 50) { body } }"}`,
				"Content-Type", "application/json", "traceparent", traceparent)
			var got struct {
				Data struct{ Posts []struct{ Body string } }
			}
			r.decode(t, &got)
			if r.status != http.StatusOK || len(got.Data.Posts) != largePosts || len(r.body) < 256<<10 {
				t.Fatalf("the large query: %d, %d posts, %d bytes; want 200, %d posts, over 256 KiB",
					r.status, len(got.Data.Posts), len(r.body), largePosts)
			}
			for i, post := range got.Data.Posts {
				if post.Body != strings.Repeat("y", largeBody) {
					t.Fatalf("post %d of the answer has a body of %d bytes, want %d", i, len(post.Body), largeBody)
				}
			}
			p.stop(t) // flushes the spans

			count := map[string]int{}
			dec := json.NewDecoder(strings.NewReader(stdout.String()))
			for {
				var s stubSpan
				if err := dec.Decode(&s); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("standard output is not JSON spans: %v", err)
				}
				if s.SpanContext.TraceID == clientTraceID {
					count[s.Name]++
				}
			}
			for _, name := range []string{"graphql.resolve Query.posts", "graphql.execute", "query"} {
				if count[name] != 1 {
					t.Errorf("%d spans %q in the large query's trace, want 1 (all: %v)", count[name], name, count)
				}
			}
		})
	}
}
