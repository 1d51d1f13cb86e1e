package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphiql"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// browserAccept is the Accept header of a browser's navigation.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

// TestGraphiQLMount checks where the server binary serves the IDE: with
// introspection on, a browser's GET of /api/graphql gets the page and the
// assets are served under /api/graphiql/, while API clients get the
// endpoint's answers as before; with introspection off (production),
// nothing of the IDE is served and a browser gets the endpoint's answer.
func TestGraphiQLMount(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: the server binary, twice")
	db := sqliteDatabase(t)
	db.mustRun(t, "migrate")

	t.Run("introspection on", func(t *testing.T) {
		p := db.start(t, "GRAPHQL_INTROSPECTION=true")
		page := send(t, http.MethodGet, p.base+"/api/graphql", "", "Accept", browserAccept)
		if page.status != http.StatusOK || page.header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(page.body, `data-endpoint="/api/graphql"`) ||
			!strings.HasPrefix(page.header.Get("Content-Security-Policy"), "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-") {
			t.Errorf("browser GET /api/graphql: %d %q CSP %q\n%s", page.status, page.header.Get("Content-Type"),
				page.header.Get("Content-Security-Policy"), page.body)
		}
		init := send(t, http.MethodGet, p.base+"/api/graphiql/init.js", "")
		if init.status != http.StatusOK || !strings.Contains(init.body, "GraphiQL.createFetcher") ||
			init.header.Get("Content-Security-Policy") != graphiql.ContentSecurityPolicy {
			t.Errorf("GET /api/graphiql/init.js: %d CSP %q\n%s", init.status, init.header.Get("Content-Security-Policy"), init.body)
		}
		// API clients: the endpoint's answers, as without the IDE.
		send(t, http.MethodGet, p.base+"/api/graphql?query=%7B__typename%7D", "", "Accept", "application/json").
			check(t, http.StatusOK, `{"data":{"__typename":"Query"}}`, "Content-Type", "application/json; charset=utf-8")
		send(t, http.MethodPost, p.base+"/api/graphql", `{"query":"{__typename}"}`, "Content-Type", "application/json", "Accept", browserAccept).
			check(t, http.StatusOK, `{"data":{"__typename":"Query"}}`, "Content-Type", "application/json; charset=utf-8")
	})

	t.Run("introspection off", func(t *testing.T) {
		p := db.start(t, "GRAPHQL_INTROSPECTION=false")
		want := send(t, http.MethodGet, p.base+"/api/graphql", "", "Accept", "application/json")
		got := send(t, http.MethodGet, p.base+"/api/graphql", "", "Accept", browserAccept)
		if got.status != want.status || got.body != want.body || got.header.Get("Content-Type") != want.header.Get("Content-Type") ||
			got.header.Get("Content-Security-Policy") != "" {
			t.Errorf("browser GET /api/graphql: %d %q %s; want the endpoint's %d %q %s", got.status, got.header.Get("Content-Type"), got.body,
				want.status, want.header.Get("Content-Type"), want.body)
		}
		send(t, http.MethodGet, p.base+"/api/graphiql/init.js", "").check(t, http.StatusNotFound, `{"message":"Not found."}`)
	})
}
