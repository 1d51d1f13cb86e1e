package graphqlhttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// sdlServer serves h.SDL() at /schema.graphql on loopback.
func sdlServer(t *testing.T, cfg graphqlhttp.Config) (url string, sdl string) {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	cfg.Presenter, cfg.Auth = apierror.Presenter{Logger: quiet}, nobody{}
	schema := sampleSchema(t)
	h, err := graphqlhttp.New(schema, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(staffMiddleware(h.SDL()))
	t.Cleanup(srv.Close)
	return srv.URL + "/schema.graphql", schema.SDL() + "\n"
}

func sdlRequest(t *testing.T, method, url string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

type staffKey struct{}

// staffMiddleware marks the requests with X-Staff: yes, as authentication
// middleware in front of the endpoint would mark a user.
func staffMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Staff") == "yes" {
			r = r.WithContext(context.WithValue(r.Context(), staffKey{}, true))
		}
		next.ServeHTTP(w, r)
	})
}

const notFoundBody = `{"errors":[{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}]}`

func TestSDLHandler(t *testing.T) {
	t.Run("introspection off exposes nothing", func(t *testing.T) {
		url, _ := sdlServer(t, graphqlhttp.Config{})
		res, body := sdlRequest(t, http.MethodGet, url)
		if res.StatusCode != http.StatusNotFound || body != notFoundBody {
			t.Errorf("got %d %s, want 404 %s", res.StatusCode, body, notFoundBody)
		}
		if res.Header.Get("ETag") != "" {
			t.Errorf("ETag %q on a refusal", res.Header.Get("ETag"))
		}
	})
	t.Run("introspection on", func(t *testing.T) {
		url, sdl := sdlServer(t, graphqlhttp.Config{Introspection: true})
		res, body := sdlRequest(t, http.MethodGet, url)
		if res.StatusCode != http.StatusOK || body != sdl {
			t.Fatalf("got %d\n%s\nwant 200\n%s", res.StatusCode, body, sdl)
		}
		for k, want := range map[string]string{"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"} {
			if got := res.Header.Get(k); got != want {
				t.Errorf("%s: %q, want %q", k, got, want)
			}
		}
		etag := res.Header.Get("ETag")
		if len(etag) != 34 || !strings.HasPrefix(etag, `"`) {
			t.Errorf("ETag %q, want 32 hex digits in quotes", etag)
		}
		if res, body := sdlRequest(t, http.MethodGet, url, "If-None-Match", etag); res.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("If-None-Match: got %d %q, want 304 and no body", res.StatusCode, body)
		}
		if res, body := sdlRequest(t, http.MethodHead, url); res.StatusCode != http.StatusOK || body != "" || res.ContentLength != int64(len(sdl)) {
			t.Errorf("HEAD: got %d %q, length %d; want 200, no body, length %d", res.StatusCode, body, res.ContentLength, len(sdl))
		}
		res, body = sdlRequest(t, http.MethodPost, url)
		want := `{"errors":[{"message":"The schema is read with GET or HEAD.","extensions":{"code":"BAD_USER_INPUT"}}]}`
		if res.StatusCode != http.StatusMethodNotAllowed || body != want || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST: got %d %s (Allow %q), want 405 %s (Allow GET, HEAD)", res.StatusCode, body, res.Header.Get("Allow"), want)
		}
	})
	t.Run("AllowIntrospection decides per request", func(t *testing.T) {
		url, sdl := sdlServer(t, graphqlhttp.Config{Introspection: true, AllowIntrospection: func(ctx context.Context) bool {
			staff, _ := ctx.Value(staffKey{}).(bool)
			return staff
		}})
		if res, body := sdlRequest(t, http.MethodGet, url, "X-Staff", "yes"); res.StatusCode != http.StatusOK || body != sdl {
			t.Errorf("staff: got %d %s, want 200 and the SDL", res.StatusCode, body)
		}
		if res, body := sdlRequest(t, http.MethodGet, url); res.StatusCode != http.StatusNotFound || body != notFoundBody {
			t.Errorf("others: got %d %s, want 404 %s", res.StatusCode, body, notFoundBody)
		}
	})
}

// Serve the schema's SDL beside the endpoint, where introspection is on.
func ExampleHandler_SDL() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "greeting", Type: graphql.NewNonNull(graphql.String), Description: "Says hello."},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Introspection: true, Presenter: apierror.Presenter{Logger: quiet}})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/graphql", h)
	mux.Handle("GET /api/schema.graphql", h.SDL())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := http.Get(srv.URL + "/api/schema.graphql")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	fmt.Print(string(out))
	// Output:
	// 200 text/plain; charset=utf-8
	// type Query {
	//   """Says hello."""
	//   greeting: String!
	// }
}
