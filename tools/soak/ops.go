package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// operation is one kind of request in the mix.
type operation struct {
	name    string
	hostile bool // invalid or hostile on purpose
	write   bool // creates or deletes something
	weight  int
	run     func(w *worker, o *operation)
}

// operations is the mix, with relative weights: about 85% valid requests,
// 15% hostile ones.
var operations = []*operation{
	{name: "graphql posts with authors", weight: 14, run: (*worker).posts},
	{name: "graphql post(id)", weight: 9, run: (*worker).post},
	{name: "graphql post(id) inline id", weight: 3, run: (*worker).postInline},
	createPostOp,
	{name: "graphql deletePost", write: true, weight: 5, run: (*worker).deletePost},
	{name: "graphql deletePost missing", weight: 2, run: (*worker).deleteMissingPost},
	{name: "articles list", weight: 14, run: (*worker).listArticles},
	{name: "articles show", weight: 9, run: (*worker).showArticle},
	createArticleOp,
	{name: "articles delete", write: true, weight: 5, run: (*worker).deleteArticle},
	{name: "health", weight: 2, run: (*worker).health},

	{name: "hostile: malformed JSON", hostile: true, weight: 2, run: (*worker).malformedJSON},
	{name: "hostile: batch", hostile: true, weight: 1, run: (*worker).batch},
	{name: "hostile: too deep or too wide", hostile: true, weight: 2, run: (*worker).tooDeep},
	{name: "hostile: bad variables", hostile: true, weight: 1, run: (*worker).badVariables},
	{name: "hostile: no token", hostile: true, weight: 1, run: (*worker).noToken},
	{name: "hostile: bad token", hostile: true, weight: 2, run: (*worker).badToken},
	{name: "hostile: 2 MiB body", hostile: true, weight: 1, run: (*worker).bigBody},
	{name: "hostile: unknown route", hostile: true, weight: 2, run: (*worker).unknownRoute},
	{name: "hostile: wrong method", hostile: true, weight: 1, run: (*worker).wrongMethod},
	{name: "hostile: invalid article", hostile: true, weight: 1, run: (*worker).invalidArticle},
	{name: "hostile: bad pagination", hostile: true, weight: 1, run: (*worker).badPagination},
}

// The creating operations stand alone: the deleting ones fall back on them
// when their client has nothing left to delete.
var (
	createPostOp    = &operation{name: "graphql createPost", write: true, weight: 8, run: (*worker).createPost}
	createArticleOp = &operation{name: "articles create", write: true, weight: 8, run: (*worker).createArticle}
)

// totalWeight is the sum of the weights of operations.
var totalWeight = func() int {
	n := 0
	for _, o := range operations {
		n += o.weight
	}
	return n
}()

// pick chooses an operation at random, by weight.
func pick(rng *rand.Rand) *operation {
	n := rng.IntN(totalWeight)
	for _, o := range operations {
		if n < o.weight {
			return o
		}
		n -= o.weight
	}
	return operations[len(operations)-1]
}

// bigBodySize is the size of the oversized bodies: twice the articles cap.
const bigBodySize = 2 << 20

// bodies are the oversized request bodies, built once and shared.
type bodies struct {
	article, graphQL, login []byte
}

func newBodies() bodies {
	pad := strings.Repeat("x", bigBodySize)
	article, _ := json.Marshal(map[string]any{"title": "Too big", "body": pad, "published": true})
	graphQL, _ := json.Marshal(map[string]any{"query": "{ posts { id } }" + strings.Repeat(" ", bigBodySize)})
	login, _ := json.Marshal(map[string]string{"email": "ada@example.com", "password": pad})
	return bodies{article: article, graphQL: graphQL, login: login}
}

// worker is one client: it sends one request after another for its user
// and keeps the ledger of what it wrote.
type worker struct {
	name   string // tags the titles it writes
	c      *client
	user   user
	forged string // the user's token with a broken signature
	none   string // the user's claims under alg "none"
	big    bodies
	rng    *rand.Rand
	rec    *recorder
	led    ledger
	seq    int

	lastTotal int64 // meta.total of the last page of the list it read
}

func newWorker(i int, c *client, u user, big bodies, seed uint64) *worker {
	return &worker{
		name:   "c" + strconv.Itoa(i),
		c:      c,
		user:   u,
		forged: forge(u.token),
		none:   algNone(u.token),
		big:    big,
		rng:    rand.New(rand.NewPCG(seed, uint64(i))),
		rec:    newRecorder(),
	}
}

// forge breaks the signature of token in its middle (the last character
// of base64url may only carry padding bits).
func forge(token string) string {
	dot := strings.LastIndexByte(token, '.')
	sig := []byte(token[dot+1:])
	if len(sig) == 0 {
		return token + "x"
	}
	i := len(sig) / 2
	if sig[i] == 'A' {
		sig[i] = 'B'
	} else {
		sig[i] = 'A'
	}
	return token[:dot+1] + string(sig)
}

// algNone returns the claims of token under the header {"alg":"none"} and
// no signature.
func algNone(token string) string {
	parts := strings.Split(token, ".")
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	payload := ""
	if len(parts) > 1 {
		payload = parts[1]
	}
	return header + "." + payload + "."
}

// title returns a title no other request of the soak uses.
func (w *worker) title(kind string) string {
	w.seq++
	return fmt.Sprintf("soak %s %s %d", kind, w.name, w.seq)
}

// call sends req for o and records its answer. It reports whether the
// status is one of want; any other status, or a transport error, is an
// unexpected answer.
func (w *worker) call(o *operation, req request, want ...int) (answer, bool) {
	a := w.c.do(req)
	w.rec.record(o, a)
	if a.err != nil || !slices.Contains(want, a.status) {
		w.rec.unexpected(o, a, fmt.Sprintf("want status %v", want))
		return a, false
	}
	return a, true
}

// graphql is a GraphQL request; token may be empty.
func graphql(query string, variables map[string]any, token string) request {
	return request{method: http.MethodPost, path: "/api/graphql", body: graphQLBody(query, variables),
		contentType: "application/json", token: token}
}

// gqlAnswer decodes a GraphQL answer, recording an answer with an
// INTERNAL_SERVER_ERROR as a server error. It reports whether the body
// decoded and, when wantNoErrors, held no errors.
func (w *worker) gqlAnswer(o *operation, a answer, wantNoErrors bool) (gqlResult, bool) {
	var res gqlResult
	if err := json.Unmarshal(a.body, &res); err != nil {
		w.rec.unexpected(o, a, "the body is not a GraphQL answer")
		return res, false
	}
	for _, e := range res.Errors {
		if e.Extensions["code"] == "INTERNAL_SERVER_ERROR" {
			w.rec.internal(o)
		}
	}
	if wantNoErrors && len(res.Errors) > 0 {
		w.rec.unexpected(o, a, "errors in the answer")
		return res, false
	}
	return res, true
}

// postFields are the fields soak reads of a post.
type postFields struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Author *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"author"`
}

func (w *worker) posts(o *operation) {
	first := 1 + w.rng.IntN(50)
	a, ok := w.call(o, graphql(`query ($n: Int) { posts(first: $n) { id title createdAt author { id name } } }`,
		map[string]any{"n": first}, ""), http.StatusOK)
	if !ok {
		return
	}
	res, ok := w.gqlAnswer(o, a, true)
	if !ok {
		return
	}
	var posts []postFields
	if err := json.Unmarshal(res.Data["posts"], &posts); err != nil || len(posts) > first {
		w.rec.unexpected(o, a, "posts is not a list of at most first posts")
		return
	}
	seen := map[string]bool{}
	for _, p := range posts {
		if p.Author == nil || p.Author.Name == "" || seen[p.ID] {
			w.rec.unexpected(o, a, "a post without its author, or twice in the list")
			return
		}
		seen[p.ID] = true
	}
}

func (w *worker) post(o *operation) {
	if len(w.led.livePosts) == 0 {
		w.postByID(o, "999999999", nil)
		return
	}
	p := w.led.livePosts[w.rng.IntN(len(w.led.livePosts))]
	w.postByID(o, p.id, &p)
}

// postByID reads post id, which must be want (nil: missing).
func (w *worker) postByID(o *operation, id string, want *post) {
	a, ok := w.call(o, graphql(`query ($id: ID!) { post(id: $id) { id title author { id name } } }`,
		map[string]any{"id": id}, ""), http.StatusOK)
	if !ok {
		return
	}
	res, ok := w.gqlAnswer(o, a, true)
	if !ok {
		return
	}
	var got *postFields
	if err := json.Unmarshal(res.Data["post"], &got); err != nil {
		w.rec.unexpected(o, a, "post is not a post")
		return
	}
	switch {
	case want == nil && got != nil:
		w.rec.unexpected(o, a, "a post that should not exist")
	case want != nil && got == nil:
		w.rec.unexpected(o, a, "read-your-writes: the post created is missing")
	case want != nil && (got.ID != want.id || got.Title != want.title || got.Author == nil):
		w.rec.unexpected(o, a, "read-your-writes: the post differs")
	}
}

// postInline sends a document of its own for each id, as careless clients
// do, so that the server's document cache fills up and has to evict.
func (w *worker) postInline(o *operation) {
	id := 1 + w.rng.IntN(1_000_000)
	a, ok := w.call(o, graphql(fmt.Sprintf(`{ post(id: "%d") { id title } }`, id), nil, ""), http.StatusOK)
	if ok {
		w.gqlAnswer(o, a, true)
	}
}

func (w *worker) createPost(o *operation) {
	title := w.title("post")
	in := map[string]any{"title": title, "body": "Written by the soak."}
	if w.rng.IntN(2) == 0 {
		in["tags"] = []string{"soak", w.name}
	}
	a, ok := w.call(o, graphql(`mutation ($in: CreatePostInput!) { createPost(input: $in) { id title author { id } } }`,
		map[string]any{"in": in}, w.user.token), http.StatusOK)
	if !ok {
		w.led.uncertainPosts++
		return
	}
	res, ok := w.gqlAnswer(o, a, true)
	if !ok {
		w.led.uncertainPosts++
		return
	}
	var got postFields
	if err := json.Unmarshal(res.Data["createPost"], &got); err != nil || got.ID == "" || got.Title != title ||
		got.Author == nil || got.Author.ID != strconv.FormatInt(w.user.id, 10) {
		w.rec.unexpected(o, a, "createPost did not return the post written")
		w.led.uncertainPosts++
		return
	}
	w.led.addPost(post{id: got.ID, title: title})
}

func (w *worker) deletePost(o *operation) {
	p, ok := w.led.takePost(w.rng)
	if !ok {
		w.createPost(createPostOp)
		return
	}
	a, ok := w.call(o, graphql(`mutation ($id: ID!) { deletePost(id: $id) { id title } }`,
		map[string]any{"id": p.id}, w.user.token), http.StatusOK)
	if !ok {
		w.led.uncertainPosts++
		return
	}
	res, ok := w.gqlAnswer(o, a, true)
	if !ok {
		w.led.uncertainPosts++
		return
	}
	var got postFields
	if err := json.Unmarshal(res.Data["deletePost"], &got); err != nil || got.ID != p.id || got.Title != p.title {
		w.rec.unexpected(o, a, "deletePost did not return the post deleted")
		w.led.uncertainPosts++
		return
	}
	w.led.deletedPosts = append(w.led.deletedPosts, p)
}

func (w *worker) deleteMissingPost(o *operation) {
	a, ok := w.call(o, graphql(`mutation { deletePost(id: "999999999") { id } }`, nil, w.user.token), http.StatusOK)
	if !ok {
		return
	}
	res, ok := w.gqlAnswer(o, a, false)
	if ok && (len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "NOT_FOUND") {
		w.rec.unexpected(o, a, "want a NOT_FOUND error")
	}
}

// articleFields are the fields soak reads of an article.
type articleFields struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"user_id"`
	Title     string `json:"title"`
	Published bool   `json:"published"`
	Author    struct {
		ID int64 `json:"id"`
	} `json:"author"`
}

// listArticles reads a page of the list, mostly near its end, and checks
// that the page agrees with itself (see pageDisagreements).
func (w *worker) listArticles(o *operation) {
	page, perPage := listChoice(w.rng, w.lastTotal)
	a, ok := w.call(o, listRequest(page, perPage), http.StatusOK)
	if !ok {
		return
	}
	var got listPage
	if err := json.Unmarshal(a.body, &got); err != nil {
		w.rec.unexpected(o, a, "not a page of the list")
		return
	}
	w.lastTotal = got.Meta.Total
	if !w.rec.pages.check(w.c.base+"/api/articles", page, perPage, &got) {
		return // counted as a disagreement, not as an unexpected answer
	}
	seen := map[int64]bool{}
	for _, art := range got.Data {
		if !art.Published || art.Author.ID != art.UserID || seen[art.ID] {
			w.rec.unexpected(o, a, "a draft, an article without its author, or one listed twice")
			return
		}
		seen[art.ID] = true
	}
}

func (w *worker) showArticle(o *operation) {
	var published []article
	for _, art := range w.led.liveArticles {
		if art.published {
			published = append(published, art)
		}
	}
	if len(published) == 0 {
		w.call(o, request{method: http.MethodGet, path: "/api/articles/999999999"}, http.StatusNotFound)
		return
	}
	art := published[w.rng.IntN(len(published))]
	a, ok := w.call(o, request{method: http.MethodGet, path: "/api/articles/" + strconv.FormatInt(art.id, 10)}, http.StatusOK)
	if !ok {
		return
	}
	var got struct{ Data articleFields }
	if err := json.Unmarshal(a.body, &got); err != nil || got.Data.ID != art.id || got.Data.Title != art.title ||
		got.Data.UserID != w.user.id {
		w.rec.unexpected(o, a, "read-your-writes: the article differs")
	}
}

func (w *worker) createArticle(o *operation) {
	title := w.title("article")
	published := w.rng.IntN(10) < 7
	body, _ := json.Marshal(map[string]any{"title": title, "body": "Written by the soak.", "published": published,
		"user_id": 999999}) // ignored: the author comes from the token
	a, ok := w.call(o, request{method: http.MethodPost, path: "/api/articles", body: body,
		contentType: "application/json", token: w.user.token}, http.StatusCreated)
	if !ok {
		w.led.uncertain(published)
		return
	}
	var got struct{ Data articleFields }
	if err := json.Unmarshal(a.body, &got); err != nil || got.Data.ID <= 0 || got.Data.Title != title ||
		got.Data.Published != published || got.Data.UserID != w.user.id ||
		a.header.Get("Location") != w.c.base+"/api/articles/"+strconv.FormatInt(got.Data.ID, 10) {
		w.rec.unexpected(o, a, "the 201 does not describe the article written")
		w.led.uncertain(published)
		return
	}
	w.led.addArticle(article{id: got.Data.ID, title: title, published: published})
}

func (w *worker) deleteArticle(o *operation) {
	art, ok := w.led.takeArticle(w.rng)
	if !ok {
		w.createArticle(createArticleOp)
		return
	}
	if _, ok := w.call(o, request{method: http.MethodDelete, path: "/api/articles/" + strconv.FormatInt(art.id, 10),
		token: w.user.token}, http.StatusNoContent); !ok {
		w.led.uncertain(art.published)
		return
	}
	w.led.deletedArticles = append(w.led.deletedArticles, art)
}

func (w *worker) health(o *operation) {
	w.call(o, request{method: http.MethodGet, path: "/healthz"}, http.StatusOK)
}

// expectCode checks that a 4xx GraphQL answer carries code.
func (w *worker) expectCode(o *operation, a answer, code string) {
	res, ok := w.gqlAnswer(o, a, false)
	if ok && (len(res.Errors) == 0 || res.Errors[0].Extensions["code"] != code || res.Data != nil) {
		w.rec.unexpected(o, a, "want "+code+" and no data")
	}
}

func (w *worker) malformedJSON(o *operation) {
	req := request{method: http.MethodPost, path: "/api/graphql", body: []byte(`{"query": "{ posts { id } }"`),
		contentType: "application/json"}
	if a, ok := w.call(o, req, http.StatusBadRequest); ok {
		w.expectCode(o, a, "BAD_USER_INPUT")
	}
}

func (w *worker) batch(o *operation) {
	req := request{method: http.MethodPost, path: "/api/graphql",
		body: []byte(`[{"query":"{ __typename }"},{"query":"{ posts { id } }"}]`), contentType: "application/json"}
	if a, ok := w.call(o, req, http.StatusBadRequest); ok {
		w.expectCode(o, a, "BAD_USER_INPUT")
	}
}

func (w *worker) tooDeep(o *operation) {
	var query string
	if w.rng.IntN(2) == 0 {
		// Depth 12 over the limit of 10; checked before validation.
		query = "{ posts " + strings.Repeat("{ author ", 11) + "{ id }" + strings.Repeat(" }", 12)
	} else {
		// 600 fields over the limit of 500.
		var b strings.Builder
		b.WriteString("{")
		for i := range 600 {
			fmt.Fprintf(&b, " a%d: __typename", i)
		}
		b.WriteString(" }")
		query = b.String()
	}
	if a, ok := w.call(o, graphql(query, nil, ""), http.StatusBadRequest); ok {
		w.expectCode(o, a, "QUERY_LIMIT_EXCEEDED")
	}
}

func (w *worker) badVariables(o *operation) {
	n := any("ten")
	if w.rng.IntN(2) == 0 {
		n = int64(1) << 40 // not a 32-bit Int
	}
	a, ok := w.call(o, graphql(`query ($n: Int) { posts(first: $n) { id } }`, map[string]any{"n": n}, ""), http.StatusBadRequest)
	if ok {
		w.expectCode(o, a, "BAD_USER_INPUT")
	}
}

func (w *worker) noToken(o *operation) {
	switch w.rng.IntN(3) {
	case 0:
		w.call(o, graphql(`mutation { createPost(input: {title: "No token", body: "x"}) { id } }`, nil, ""), http.StatusUnauthorized)
	case 1:
		w.call(o, request{method: http.MethodPost, path: "/api/articles", body: []byte(`{"title":"No token","body":"x","published":true}`),
			contentType: "application/json"}, http.StatusUnauthorized)
	default:
		w.call(o, request{method: http.MethodDelete, path: "/api/articles/1"}, http.StatusUnauthorized)
	}
}

func (w *worker) badToken(o *operation) {
	auths := []string{
		"Bearer not.a.jwt",
		"Bearer " + w.forged,
		"Bearer " + w.none,
		"Bearer " + strings.Repeat("A", 9<<10), // over the 8 KiB cap
	}
	auth := auths[w.rng.IntN(len(auths))]
	if w.rng.IntN(2) == 0 {
		w.call(o, request{method: http.MethodPost, path: "/api/graphql", body: graphQLBody(`{ posts(first: 1) { id } }`, nil),
			contentType: "application/json", rawAuth: auth}, http.StatusUnauthorized)
		return
	}
	w.call(o, request{method: http.MethodPost, path: "/api/articles", body: []byte(`{"title":"Forged","body":"x","published":true}`),
		contentType: "application/json", rawAuth: auth}, http.StatusUnauthorized)
}

func (w *worker) bigBody(o *operation) {
	switch w.rng.IntN(3) {
	case 0:
		w.call(o, request{method: http.MethodPost, path: "/api/articles", body: w.big.article,
			contentType: "application/json", token: w.user.token}, http.StatusRequestEntityTooLarge)
	case 1:
		if a, ok := w.call(o, request{method: http.MethodPost, path: "/api/graphql", body: w.big.graphQL,
			contentType: "application/json"}, http.StatusBadRequest); ok {
			w.expectCode(o, a, "QUERY_LIMIT_EXCEEDED")
		}
	default:
		w.call(o, request{method: http.MethodPost, path: "/api/auth/login", body: w.big.login,
			contentType: "application/json"}, http.StatusRequestEntityTooLarge)
	}
}

func (w *worker) unknownRoute(o *operation) {
	paths := []string{"/api/nope", "/api/articles/abc", "/api/articles/1/comments", "/api/articles/007",
		"/wp-login.php", "/.env", "/api/graphql/extra", "/api/articles/99999999999999999999"}
	w.call(o, request{method: http.MethodGet, path: paths[w.rng.IntN(len(paths))]}, http.StatusNotFound)
}

func (w *worker) wrongMethod(o *operation) {
	reqs := []request{
		{method: http.MethodPut, path: "/api/articles"},
		{method: http.MethodPatch, path: "/api/articles/1", token: w.user.token},
		{method: http.MethodDelete, path: "/api/graphql"},
		{method: http.MethodPut, path: "/api/auth/login"},
	}
	w.call(o, reqs[w.rng.IntN(len(reqs))], http.StatusMethodNotAllowed)
}

func (w *worker) invalidArticle(o *operation) {
	cases := []struct {
		body        string
		contentType string
		want        int
	}{
		{body: `{"title":"` + strings.Repeat("é", 201) + `","body":"x","published":true}`, contentType: "application/json", want: http.StatusUnprocessableEntity},
		{body: `{"title":"  ","body":"x","published":true}`, contentType: "application/json", want: http.StatusUnprocessableEntity},
		{body: `{"title":"Bad","body":"x","published":"yes"}`, contentType: "application/json", want: http.StatusUnprocessableEntity},
		{body: `{"title":"Bad","body":`, contentType: "application/json", want: http.StatusBadRequest},
		{body: `[{"title":"Bad","body":"x"}]`, contentType: "application/json", want: http.StatusBadRequest},
		{body: `title=Bad&body=x`, contentType: "application/x-www-form-urlencoded", want: http.StatusUnsupportedMediaType},
	}
	tc := cases[w.rng.IntN(len(cases))]
	w.call(o, request{method: http.MethodPost, path: "/api/articles", body: []byte(tc.body),
		contentType: tc.contentType, token: w.user.token}, tc.want)
}

func (w *worker) badPagination(o *operation) {
	queries := []string{"per_page=0", "per_page=101", "page=0", "page=-1", "per_page=abc", "page=1.5", "per_page="}
	w.call(o, request{method: http.MethodGet, path: "/api/articles?" + queries[w.rng.IntN(len(queries))]},
		http.StatusUnprocessableEntity)
}
