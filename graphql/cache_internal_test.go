package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/limits"
)

// keys returns the queries in c from the most to the least recently used,
// after checking that the list, the map and the byte count agree.
func keys(t *testing.T, c *cache) []string {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	bytes := 0
	for el := c.ll.Front(); el != nil; el = el.Next() {
		d := el.Value.(*document)
		if c.items[d.query] != el {
			t.Errorf("the map does not point at the list element of %q", d.query)
		}
		out = append(out, d.query)
		bytes += d.size()
	}
	if len(c.items) != len(out) {
		t.Errorf("the map has %d entries, the list %d", len(c.items), len(out))
	}
	if bytes != c.bytes {
		t.Errorf("the cache counts %d bytes, its documents weigh %d", c.bytes, bytes)
	}
	if len(out) > c.maxItems || c.bytes > c.maxBytes {
		t.Errorf("the cache holds %d documents and %d bytes, over its bounds %d and %d", len(out), c.bytes, c.maxItems, c.maxBytes)
	}
	return out
}

func sameKeys(got []string, want ...string) bool {
	return strings.Join(got, "|") == strings.Join(want, "|")
}

func TestCacheDefaults(t *testing.T) {
	c := newCache(0, 0)
	if c.maxItems != DefaultCacheSize || c.maxBytes != DefaultCacheBytes {
		t.Errorf("newCache(0, 0) bounds = %d documents, %d bytes; want %d, %d", c.maxItems, c.maxBytes, DefaultCacheSize, DefaultCacheBytes)
	}
	c = newCache(5, -1) // negative: off, so no bound on the bytes
	if c.maxItems != 5 || c.maxBytes != math.MaxInt {
		t.Errorf("newCache(5, -1) bounds = %d documents, %d bytes; want 5, %d", c.maxItems, c.maxBytes, math.MaxInt)
	}
}

func TestCacheDisabled(t *testing.T) {
	c := newCache(-1, 0)
	if c != nil {
		t.Fatalf("newCache(-1, 0) = %+v, want nil (no cache)", c)
	}
	c.offerAndAdd(&document{query: "{ a }"})
	if d := c.get("{ a }"); d != nil || c.len() != 0 {
		t.Errorf("a disabled cache returned %v and has %d documents", d, c.len())
	}
}

// admit offers d twice, as two requests for its text do, so that it is
// cached: nothing can take its slot of the doorkeeper in between.
func admit(c *cache, d *document) {
	c.offerAndAdd(d)
	c.offerAndAdd(d)
}

func TestCacheDoorkeeperSize(t *testing.T) {
	for _, tt := range []struct{ items, slots int }{
		{1, 4}, {2, 8}, {3, 16}, {0, 4096}, {1000, 4096}, {1024, 4096}, {1025, 8192},
		{maxSeen / 4, maxSeen}, {maxSeen/4 + 1, maxSeen}, {math.MaxInt, maxSeen},
	} {
		if got := len(newCache(tt.items, 0).seen); got != tt.slots {
			t.Errorf("newCache(%d, 0) has %d slots, want %d", tt.items, got, tt.slots)
		}
	}
	if a, b := newCache(1, 0), newCache(1, 0); a.seed == b.seed {
		t.Error("two caches share a seed")
	}
}

// TestCacheAdmitsOnSecondSight: a text is cached when it is offered the
// second time, valid or refused; the first offer only leaves its hash.
func TestCacheAdmitsOnSecondSight(t *testing.T) {
	for _, tt := range []struct {
		name string
		doc  func() *document
	}{
		{"valid", func() *document { return &document{query: "{ a }", doc: &ast.QueryDocument{}} }},
		{"refused", func() *document {
			return &document{query: "{ a }", errs: gqlerror.List{gqlerror.Errorf("Cannot query field")}}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(10, 0)
			first, second, third := tt.doc(), tt.doc(), tt.doc()
			h, slot := c.hash("{ a }")
			c.offerAndAdd(first)
			if got := keys(t, c); len(got) != 0 || c.get("{ a }") != nil {
				t.Fatalf("after the first offer keys = %v, want none", got)
			}
			if c.seen[slot] != h {
				t.Fatalf("slot %d holds %x after the first offer, want the hash %x", slot, c.seen[slot], h)
			}
			c.offerAndAdd(second)
			if got := c.get("{ a }"); got != second || !sameKeys(keys(t, c), "{ a }") {
				t.Fatalf("after the second offer get = %p (want the second document %p), keys = %v", got, second, keys(t, c))
			}
			if c.seen[slot] != 0 {
				t.Errorf("slot %d holds %x after admission, want it cleared", slot, c.seen[slot])
			}
			c.offerAndAdd(third)
			if got := c.get("{ a }"); got != second || c.len() != 1 || c.seen[slot] != 0 {
				t.Errorf("a third offer replaced the cached document or wrote its slot: get = %p, len %d", got, c.len())
			}
		})
	}
}

// TestCacheIgnoresOneTimeTexts: a stream of texts offered once each leaves
// the cache empty, allocates nothing and keeps none of them alive.
func TestCacheIgnoresOneTimeTexts(t *testing.T) {
	const n = 100_000
	c := newCache(0, 0)
	cached := &document{query: "{ kept }"}
	admit(c, cached)
	docs := make([]*document, n)
	for i := range docs {
		docs[i] = &document{query: fmt.Sprintf("{ a: echo(v: %d) }", i)}
	}
	i := 0
	if allocs := testing.AllocsPerRun(1000, func() { c.offerAndAdd(docs[i]); i++ }); allocs != 0 {
		t.Errorf("offering a new text allocates %v times, want 0", allocs)
	}
	ptrs := make([]weak.Pointer[document], n)
	for j, d := range docs {
		ptrs[j] = weak.Make(d)
	}
	for _, d := range docs[i:] {
		c.offerAndAdd(d)
	}
	if got := keys(t, c); !sameKeys(got, "{ kept }") || c.bytes != cached.size() {
		t.Fatalf("after %d one-time texts keys = %d of them, %d bytes; want only { kept }", n, len(got), c.bytes)
	}
	docs = nil
	runtime.GC()
	alive := 0
	for _, w := range ptrs {
		if w.Value() != nil {
			alive++
		}
	}
	if alive != 0 {
		t.Errorf("%d of %d one-time documents are still alive after a GC", alive, n)
	}
	runtime.KeepAlive(cached)

	c = newCache(0, 0)
	for j := range n {
		c.offerAndAdd(&document{query: fmt.Sprintf("{ b: echo(v: %d) }", j)})
	}
	if c.len() != 0 || c.bytes != 0 || len(c.items) != 0 {
		t.Errorf("an empty cache holds %d documents (%d in the map), %d bytes after %d one-time texts", c.len(), len(c.items), c.bytes, n)
	}
}

// slotMates returns a text that shares the slot of the doorkeeper of a in
// c with another hash, and one in another slot, trying candidates.
func slotMates(t *testing.T, c *cache, a string) (same, other string) {
	t.Helper()
	ha, slot := c.hash(a)
	for i := 1; i < 1000 && (same == "" || other == ""); i++ {
		q := fmt.Sprintf("{ b%d }", i)
		switch h, s := c.hash(q); {
		case s == slot && h != ha && same == "":
			same = q
		case s != slot && other == "":
			other = q
		}
	}
	if same == "" || other == "" {
		t.Fatalf("no text shares the slot %d of %q, or none is in another slot, in %d slots", slot, a, len(c.seen))
	}
	return same, other
}

// TestCacheDoorkeeperCollision: a text whose slot another text took is
// forgotten, and needs a third sight; a text in another slot is not.
func TestCacheDoorkeeperCollision(t *testing.T) {
	const a = "{ a }"
	c := newCache(1, 0) // 4 slots
	_, other := slotMates(t, c, a)
	c.offerAndAdd(&document{query: a})
	c.offerAndAdd(&document{query: other}) // another slot: a is still remembered
	secondA := &document{query: a}
	c.offerAndAdd(secondA)
	if got := keys(t, c); c.get(a) != secondA || !sameKeys(got, a) {
		t.Fatalf("keys = %v: %q is not admitted on its second sight after %q in another slot", got, a, other)
	}

	c = newCache(1, 0)
	b, _ := slotMates(t, c, a)
	ha, slot := c.hash(a)
	hb, _ := c.hash(b)
	c.offerAndAdd(&document{query: a})
	c.offerAndAdd(&document{query: b}) // takes a's slot: a is forgotten
	if c.seen[slot] != hb {
		t.Fatalf("slot %d holds %x, want the hash of %q %x (that of %q is %x)", slot, c.seen[slot], b, hb, a, ha)
	}
	c.offerAndAdd(&document{query: a}) // second sight, but forgotten: remembered again
	if got := keys(t, c); len(got) != 0 || c.seen[slot] != ha {
		t.Fatalf("keys = %v after a collision, want none and %q remembered", got, a)
	}
	thirdA := &document{query: a}
	c.offerAndAdd(thirdA)
	if got := keys(t, c); c.get(a) != thirdA || !sameKeys(got, a) {
		t.Fatalf("keys = %v: %q is not admitted on its third sight", got, a)
	}
	c.offerAndAdd(&document{query: b}) // b was forgotten too: remembered again
	if got := keys(t, c); !sameKeys(got, a) {
		t.Fatalf("keys = %v, want [%s]", got, a)
	}
	c.offerAndAdd(&document{query: b}) // admitted, and evicts a (one document)
	if got := keys(t, c); !sameKeys(got, b) {
		t.Errorf("keys = %v, want [%s]", got, b)
	}
}

func TestCacheEvictsByCount(t *testing.T) {
	c := newCache(3, 0)
	for _, q := range []string{"a", "b", "c"} {
		admit(c, &document{query: q})
	}
	if got := keys(t, c); !sameKeys(got, "c", "b", "a") {
		t.Fatalf("keys = %v, want [c b a]", got)
	}
	if c.get("a") == nil { // a becomes the most recently used
		t.Fatal("get(a) = nil")
	}
	c.offerAndAdd(&document{query: "d"}) // first sight: evicts nothing
	if got := keys(t, c); !sameKeys(got, "a", "c", "b") {
		t.Errorf("keys = %v after the first sight of d, want [a c b]", got)
	}
	c.offerAndAdd(&document{query: "d"}) // evicts b, the least recently used
	if got := keys(t, c); !sameKeys(got, "d", "a", "c") {
		t.Errorf("keys = %v, want [d a c]", got)
	}
	if c.get("b") != nil {
		t.Error("get(b) found an evicted document")
	}
	admit(c, &document{query: "e"})
	admit(c, &document{query: "f"})
	if got := keys(t, c); !sameKeys(got, "f", "e", "d") {
		t.Errorf("keys = %v, want [f e d]", got)
	}
}

func TestCacheEvictsByBytes(t *testing.T) {
	c := newCache(100, 10)
	admit(c, &document{query: "aaaa"})
	admit(c, &document{query: "bbbb"})
	admit(c, &document{query: "cc"}) // exactly 10 bytes
	if got := keys(t, c); !sameKeys(got, "cc", "bbbb", "aaaa") {
		t.Fatalf("keys = %v, want [cc bbbb aaaa]", got)
	}
	admit(c, &document{query: "ddd"}) // 13 bytes: aaaa goes
	if got := keys(t, c); !sameKeys(got, "ddd", "cc", "bbbb") {
		t.Errorf("keys = %v, want [ddd cc bbbb]", got)
	}
	c.get("bbbb")
	admit(c, &document{query: "eeeeeeee"}) // 17 bytes: cc then ddd go
	if got := keys(t, c); !sameKeys(got, "eeeeeeee") {
		// bbbb (4) + eeeeeeee (8) = 12 > 10, so bbbb goes too
		t.Errorf("keys = %v, want [eeeeeeee]", got)
	}
	admit(c, &document{query: "xxxxxxxxxxx"}) // 11 bytes: never fits, evicts nothing
	if got := keys(t, c); !sameKeys(got, "eeeeeeee") {
		t.Errorf("keys = %v after adding a query larger than the cache, want [eeeeeeee]", got)
	}
	if h, slot := c.hash("xxxxxxxxxxx"); c.seen[slot] == h {
		t.Error("a query larger than the cache is remembered by the doorkeeper")
	}
	admit(c, &document{query: "yyyyyyyyyy"}) // exactly the bound: replaces everything
	if got := keys(t, c); !sameKeys(got, "yyyyyyyyyy") {
		t.Errorf("keys = %v, want [yyyyyyyyyy]", got)
	}
}

func TestCacheKeepsTheFirstDocument(t *testing.T) {
	c := newCache(10, 0)
	first, second := &document{query: "q"}, &document{query: "q"}
	admit(c, first)
	admit(c, second)
	if got := c.get("q"); got != first {
		t.Errorf("get(q) = %p, want the first document %p", got, first)
	}
	if got := keys(t, c); !sameKeys(got, "q") {
		t.Errorf("keys = %v, want [q]", got)
	}
}

// TestCacheConcurrent hammers a small cache from many goroutines, with
// texts offered many times and texts offered once; run it with -race.
func TestCacheConcurrent(t *testing.T) {
	c := newCache(16, 200)
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				q := fmt.Sprintf("{ f%d }", (g*7+i)%100)
				if i%2 == 1 {
					q = fmt.Sprintf("{ once%d_%d }", g, i)
				}
				if d := c.get(q); d != nil {
					if d.query != q {
						t.Errorf("get(%q) returned the document of %q", q, d.query)
						return
					}
					continue
				}
				c.offerAndAdd(&document{query: q})
				if i%100 == 0 {
					_ = c.len()
				}
			}
		}()
	}
	wg.Wait()
	got := keys(t, c)
	if len(got) == 0 {
		t.Error("the cache is empty")
	}
	for _, q := range got {
		if strings.HasPrefix(q, "{ once") {
			t.Errorf("a text offered once, %q, is cached", q)
		}
	}
}

// cacheSchema is a small schema for the handler tests of this file.
func cacheSchema(t testing.TB) *Schema {
	t.Helper()
	s, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: Fields{
		{Name: "hello", Type: String, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
			return "world", nil
		}},
		{Name: "echo", Type: Int, Args: []Argument{{Name: "v", Type: Int}},
			Resolve: func(_ context.Context, _ any, args Args, _ ResolveInfo) (any, error) {
				return args.Value("v"), nil
			}},
	}}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	return s
}

func newCachePreparer(t testing.TB, cfg PrepareConfig) *Preparer {
	t.Helper()
	return NewPreparer(cacheSchema(t), cfg)
}

// post prepares and executes the request of a JSON body as graphqlhttp
// does, and returns the status and body of its answer.
func post(p *Preparer, body string) (int, string) {
	var req struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		panic(err)
	}
	pr, errs, fault := p.Prepare(context.Background(), req.Query, PrepareOptions{OperationName: req.OperationName})
	defer pr.Release()
	switch {
	case fault != nil:
		return 500, fault.Error()
	case errs != nil:
		return 400, string(Result{Errors: errs}.AppendJSON(nil, nil))
	}
	res, err := pr.Operation.Execute(context.Background(), ExecParams{Variables: req.Variables})
	if err != nil || res.Data == nil {
		return 400, fmt.Sprint(err, res.Errors)
	}
	return 200, string(res.AppendJSON(nil, nil))
}

// documentOf returns the document p prepares query from.
func documentOf(p *Preparer, query string) *document {
	d, _ := p.document(context.Background(), query, &PrepareOptions{}, new(time.Time))
	return d
}

// TestHandlerServesRepeatsFromTheCache checks that a repeated query, valid
// or not, is computed afresh the first two times, cached the second, and
// answered from that document afterwards.
func TestHandlerServesRepeatsFromTheCache(t *testing.T) {
	h := newCachePreparer(t, PrepareConfig{Limits: limits.Config{MaxNodes: 5}})
	tests := []struct {
		name, query, body, wantBody string
		valid                       bool
	}{
		{name: "valid", query: "query($v: Int) { echo(v: $v) }", valid: true,
			body: `{"query":"query($v: Int) { echo(v: $v) }","variables":{"v":1}}`, wantBody: `{"data":{"echo":1}}`},
		{name: "invalid", query: "{ nope }",
			body:     `{"query":"{ nope }"}`,
			wantBody: `{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`},
		{name: "syntax error", query: "{ hello",
			body:     `{"query":"{ hello"}`,
			wantBody: `{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>","locations":[{"line":1,"column":8}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}`},
		{name: "over a limit", query: "{ a:hello a:hello a:hello a:hello a:hello a:hello }",
			body:     `{"query":"{ a:hello a:hello a:hello a:hello a:hello a:hello }"}`,
			wantBody: `{"errors":[{"message":"query node count 6 exceeds the maximum of 5","locations":[{"line":1,"column":43}],"extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"nodes","max":5,"found":6}}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.cache.len()
			status, body := post(h, tt.body)
			if body != tt.wantBody {
				t.Fatalf("first answer = %d %s, want %s", status, body, tt.wantBody)
			}
			if d := h.cache.get(tt.query); d != nil || h.cache.len() != before {
				t.Fatalf("after the first request the cache has %d documents (was %d) and get = %v", h.cache.len(), before, d)
			}
			if status, body := post(h, tt.body); body != tt.wantBody {
				t.Fatalf("second answer = %d %s, want %s", status, body, tt.wantBody)
			}
			d := h.cache.get(tt.query)
			if d == nil || h.cache.len() != before+1 {
				t.Fatalf("after the second request the cache has %d documents (was %d) and get = %v", h.cache.len(), before, d)
			}
			if (d.doc != nil) != tt.valid || (d.errs == nil) != tt.valid {
				t.Errorf("cached document: doc %v, errs %v; want valid = %v", d.doc != nil, d.errs, tt.valid)
			}
			for range 3 {
				if _, again := post(h, tt.body); again != tt.wantBody {
					t.Errorf("repeated answer = %s, want %s", again, tt.wantBody)
				}
				if got := documentOf(h, tt.query); got != d {
					t.Errorf("document(%q) = %p, want the cached %p", tt.query, got, d)
				}
			}
			if h.cache.len() != before+1 {
				t.Errorf("the cache has %d documents after the repeats, want %d", h.cache.len(), before+1)
			}
		})
	}
}

// TestHandlerWithoutCache checks that CacheSize < 0 computes every document
// afresh.
func TestHandlerWithoutCache(t *testing.T) {
	h := newCachePreparer(t, PrepareConfig{CacheSize: -1})
	for range 2 {
		if status, body := post(h, `{"query":"{ hello }"}`); status != 200 || body != `{"data":{"hello":"world"}}` {
			t.Errorf("answer = %d %s", status, body)
		}
	}
	if h.cache != nil || h.cache.len() != 0 {
		t.Errorf("the handler has a cache")
	}
	if a, b := documentOf(h, "{ hello }"), documentOf(h, "{ hello }"); a == b {
		t.Error("document returned the same document twice without a cache")
	}
}

// TestHandlerCacheBoundedByBytes checks that Config.CacheBytes reaches the
// cache.
func TestHandlerCacheBoundedByBytes(t *testing.T) {
	// Each query is 13 bytes, 5 tokens and 1 node: room for two.
	one := documentWeight(13, 5, 1, 0)
	h := newCachePreparer(t, PrepareConfig{CacheSize: 100, CacheBytes: 2*one + one/2})
	for i := range 5 {
		for range 2 { // cached from the second request
			post(h, fmt.Sprintf(`{"query":"{ a%d: hello }"}`, i))
		}
	}
	if got := keys(t, h.cache); !sameKeys(got, "{ a4: hello }", "{ a3: hello }") {
		t.Errorf("keys = %v, want the last two queries", got)
	}
	if h.cache.bytes != 2*one {
		t.Errorf("cache weight %d, want %d", h.cache.bytes, 2*one)
	}
}

// TestCacheWeightTracksMemory: the estimated weight of cached documents
// is not below the memory they take, so that CacheBytes bounds memory and
// not just query text (1,000 documents of 500 aliased fields took some
// 290 MiB when only their 5.9 MB of text was counted).
func TestCacheWeightTracksMemory(t *testing.T) {
	const docs = 100
	h := newCachePreparer(t, PrepareConfig{CacheSize: docs})
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "query Q%d {", i)
		for j := range 499 {
			fmt.Fprintf(&b, " a%d: hello", j)
		}
		b.WriteString(" }")
		for range 2 { // cached from the second request
			if code, body := post(h, `{"query":"`+b.String()+`"}`); code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	grown := int(ms.HeapAlloc) - int(before)
	if h.cache.len() != docs {
		t.Fatalf("%d documents cached, want %d", h.cache.len(), docs)
	}
	if h.cache.bytes < grown*3/4 {
		t.Errorf("estimated weight %d bytes for %d bytes of heap: the estimate is far below the memory", h.cache.bytes, grown)
	}
	t.Logf("%d documents: heap %.1f MiB, estimated %.1f MiB", docs, float64(grown)/(1<<20), float64(h.cache.bytes)/(1<<20))
}

// TestHandlerOneTimeTextsEvictNothing: texts sent once each, valid or not,
// are answered but neither cached nor evict a cached document.
func TestHandlerOneTimeTextsEvictNothing(t *testing.T) {
	h := newCachePreparer(t, PrepareConfig{CacheSize: 2})
	for range 2 {
		post(h, `{"query":"{ hello }"}`)
	}
	for i := range 1000 {
		body, want := fmt.Sprintf(`{"query":"{ echo(v: %d) }"}`, i), fmt.Sprintf(`{"data":{"echo":%d}}`, i)
		if i%2 == 1 {
			body = fmt.Sprintf(`{"query":"{ x%d }"}`, i)
			want = fmt.Sprintf(`{"errors":[{"message":"Cannot query field \"x%d\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`, i)
		}
		if _, got := post(h, body); got != want {
			t.Fatalf("%s: got %s, want %s", body, got, want)
		}
	}
	if got := keys(t, h.cache); !sameKeys(got, "{ hello }") {
		t.Errorf("keys = %v, want [{ hello }]", got)
	}
}

// TestHandlerConcurrent serves many requests at once through a cache small
// enough to evict all the time; run it with -race.
func TestHandlerConcurrent(t *testing.T) {
	h := newCachePreparer(t, PrepareConfig{CacheSize: 4})
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n := (g + i) % 8
				var body, want string
				switch i % 3 {
				case 0:
					body = fmt.Sprintf(`{"query":"query Q%d($v: Int) { echo(v: $v) }","variables":{"v":%d}}`, n, i)
					want = fmt.Sprintf(`{"data":{"echo":%d}}`, i)
				case 1:
					body = fmt.Sprintf(`{"query":"{ x%d }"}`, n)
					want = fmt.Sprintf(`{"errors":[{"message":"Cannot query field \"x%d\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`, n)
				default:
					body = fmt.Sprintf(`{"query":"query A { a: hello } query B { b%d: hello }","operationName":"%s"}`, n, map[bool]string{true: "A", false: "B"}[n%2 == 0])
					want = map[bool]string{true: `{"data":{"a":"world"}}`, false: fmt.Sprintf(`{"data":{"b%d":"world"}}`, n)}[n%2 == 0]
				}
				if _, got := post(h, body); got != want {
					t.Errorf("%s: got %s, want %s", body, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	keys(t, h.cache)
}

// offerAndAdd offers d to c as the handler does: its text is looked at in
// the doorkeeper, then d is added.
func (c *cache) offerAndAdd(d *document) bool { return c.add(d, c.offer(d.query)) }
