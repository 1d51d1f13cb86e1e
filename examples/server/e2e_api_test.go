package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

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
