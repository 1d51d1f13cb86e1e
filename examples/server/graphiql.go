package main

import (
	"net/http"

	"github.com/gqlkit/gqlkit/graphiql"
)

// graphiqlAssets is where the IDE's scripts and stylesheets are served.
const graphiqlAssets = "/api/graphiql/"

// withGraphiQL mounts the in-browser IDE beside the GraphQL endpoint
// api, where introspection is allowed (GRAPHQL_INTROSPECTION, or
// APP_DEBUG when that is unset): a browser's GET of /api/graphql gets the
// GraphiQL page (see graphiql.WantsPage), every other request the
// endpoint's answer, and the page's assets are served under
// /api/graphiql/. Without introspection nothing is mounted: an HTML
// request gets the endpoint's usual answer and the assets path a 404.
func withGraphiQL(s settings, mux *http.ServeMux, api http.Handler) (http.Handler, error) {
	if !s.graphql.Introspection {
		return api, nil
	}
	ide, err := graphiql.New(graphiql.Config{Endpoint: "/api/graphql", AssetsPath: graphiqlAssets, Title: "gqlkit example server"})
	if err != nil {
		return nil, err
	}
	mux.Handle(graphiqlAssets, ide)
	return ide.Negotiate(api), nil
}
