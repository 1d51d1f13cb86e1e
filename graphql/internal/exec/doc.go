// Package exec runs a planned operation ([Execute]): it walks the plan
// (package plan) over the Go values resolvers return, calls the resolvers
// (batched ones once per level, see batchexec.go), completes each value by
// its compiled type (scalars, enums, lists, objects, and the object of an
// interface's or union's value, see abstractexec.go) and appends the data
// as JSON, with field errors at their paths. It keeps the data within its
// bounds (a maximum size, and the room a [Room] lends), stops at the
// context's deadline with one TIMEOUT error, and turns a resolver's panic
// into a masked field error.
//
// Package graphql coerces the variables, checks the cost and calls it;
// the public ResolveInfo wraps [schema.Info], and the public Tracer is
// called through the schema's StartField and EndField.
package exec
