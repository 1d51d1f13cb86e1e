// Package routers holds the tests that mount the kit's handlers and
// middleware on the routers services use, unchanged and without shims:
// http.ServeMux, chi, gorilla/mux and echo (through echo.WrapHandler and
// echo.WrapMiddleware). Its tests run them over real HTTP, each router in
// front of its own SQLite database, and check the exact statuses and
// bodies: the articles API both through its own routing (a prefix) and as
// per-route handlers, whose article id comes from the router's path values
// (ServeMux, chi) or else from the last segment of the path (gorilla/mux,
// echo); the GraphQL endpoint with a public mutation; auth's middleware.
//
// These routers are dependencies of the examples module only: the kit's
// own module needs none of them.
package routers
