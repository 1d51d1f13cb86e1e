// Package graphiql serves GraphiQL, the in-browser GraphQL IDE, from the
// binary: the page and every script and stylesheet it loads are embedded
// with go:embed, so that the IDE works offline, behind a firewall and
// under a strict Content-Security-Policy, with no CDN and no network at
// run time.
//
//	ide, err := graphiql.New(graphiql.Config{Endpoint: "/api/graphql", AssetsPath: "/api/graphiql/"})
//	…
//	mux.Handle("GET /api/graphiql/", ide)          // the assets
//	mux.Handle("/api/graphql", ide.Negotiate(api)) // a browser's GET gets the page
//
// [Handler.Negotiate] serves the page to the requests for which [WantsPage]
// holds (a GET or HEAD whose Accept header ranks text/html above every
// GraphQL answer type, as a browser's navigation does) and hands every
// other request to the endpoint unchanged, so that API clients see no
// difference. The page queries the endpoint with the headers typed into
// its headers editor (a bearer token, say); it loads the schema with the
// standard introspection query, so mount the IDE only where introspection
// is allowed: a production server leaves it out, and a browser's GET then
// gets the endpoint's usual answer.
//
// # What is embedded, and why this version
//
// GraphiQL [Version] 4.1.2 in its UMD build (one script that defines the
// GraphiQL global, with its stylesheet), React and ReactDOM 18.3.1 in
// their UMD builds, and their licences. GraphiQL 5 ships only ES modules
// whose editor (Monaco) starts web workers, which needs an import map or
// a bundler and a worker-src policy; GraphiQL 4 is the last major with a
// UMD build, needs no build step, and runs from plain script elements
// under script-src 'self'. React 18.3.1 is the last React with UMD
// builds. The page's own start-up code is a small asset of its own,
// init.js, not an inline script.
//
// The files come from the npm registry: the script vendor.sh beside this
// file fetches the pinned packages, stores each file gzip-compressed under
// dist/ and writes dist/manifest.json with each file's package, version,
// path in the package, sha256 and the package's registry integrity. The
// package's tests check every embedded file against the manifest. The
// embedded files take 0.66 MB (1.6 MB uncompressed).
//
// # Serving
//
// [Handler.ServeHTTP] answers a GET or HEAD under [Config.AssetsPath] with
// the asset it names and any other GET or HEAD with the page; other
// methods get 405 with Allow: GET, HEAD, and an unknown asset 404. Assets
// go out gzip-compressed to clients that accept gzip (every browser) and
// are decompressed on the way for the others. The page links each asset
// with its version (?v= and a prefix of the file's sha256): such a URL is
// cached for a year (Cache-Control: public, max-age=31536000, immutable),
// any other revalidates (no-cache); every asset has an ETag and answers
// If-None-Match with 304. The page itself is never stored (no-store).
//
// # Content-Security-Policy
//
// Every answer carries [ContentSecurityPolicy]: default-src 'none';
// script-src, style-src and connect-src 'self' (no inline script or style,
// no eval, queries to the page's own origin only, so [Config.Endpoint] is
// a path); img-src and font-src 'self' and data: (GraphiQL's stylesheet
// holds its fonts and icons as data: URLs); no base URI, form action or
// framing. GraphiQL needs no 'unsafe-inline' for styles: its editors and
// React set styles through the CSSOM, which the policy does not govern.
// The one exception is the scroll lock of its dialogs (settings, short
// keys), a <style> element added when a dialog first opens: the page's
// policy names a nonce in style-src, a random value new for each answer,
// which init.js hands to GraphiQL (its components put it on the elements
// they create), so that element is allowed and no other inline style is.
// The page also carries X-Content-Type-Options: nosniff and
// Referrer-Policy: no-referrer, and the assets
// Cross-Origin-Resource-Policy: same-origin.
//
// A Handler holds no state after [New] and is safe for concurrent use.
package graphiql
