// Package gomod holds a test of the kit's go.mod: every module it requires
// directly is imported by one of the kit's own packages or their tests, so
// that a service that imports the kit is not made to download what only an
// example needs. The examples live in a module of their own (examples/, and
// examples/chi for the chi router): the example server's OpenTelemetry
// exporters, and the gRPC they bring, stay out of the kit's go.mod.
package gomod
