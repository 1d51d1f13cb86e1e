// Package conformance holds gqlkit's differential conformance suite against
// graphql-js, the reference implementation of GraphQL. It has no API: the
// suite is its test.
//
// # What it checks
//
// One schema is defined twice, with gqlkit (schema_test.go) and with
// graphql-js (node/schema.mjs), over the same static data
// (testdata/data.json). Every document of the corpus (testdata/corpus/*.json:
// fragments, variables and their coercion failures, directives, aliases,
// resolver errors, null bubbling, lists of non-null, enums, custom scalars,
// introspection, syntax and validation errors) runs through both, and they
// must agree on
//
//   - validity: whether the request was accepted for execution (it parsed,
//     validated, its variables coerced and an operation was selected);
//   - data, exactly, including the order of object members;
//   - the paths and locations of the errors (not their messages).
//
// Two more checks use introspection: graphql-js's printSchema must print the
// same SDL for its own schema, for what gqlkit's Schema.SDL prints and for the
// schema that graphql-js's buildClientSchema builds from gqlkit's answer to
// getIntrospectionQuery with every option.
//
// Where gqlkit differs on purpose, the case names an entry of DEVIATIONS.md
// and states the intended outcome; nothing is skipped silently.
//
// # Running it
//
// graphql-js is pinned (node/package.json, node/package-lock.json) and
// installed with
//
//	npm ci --prefix graphql/conformance/node
//
// after which
//
//	go test -run TestConformance -v ./graphql/conformance
//
// prints one subtest per case and a closing line "conformance: N passed,
// N failed". Without node_modules the test runs npm ci itself; under CI
// (CI set) it fails instead, and it is skipped only when node is missing
// outside CI.
package conformance
