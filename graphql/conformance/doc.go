// Package conformance holds gqlkit's differential conformance suite against
// graphql-js, the reference implementation of GraphQL. It has no API: the
// suite is its test.
//
// # What it checks
//
// Two schemas are each defined twice, with gqlkit and with graphql-js, over
// the same static data: the library (schema_test.go and node/schema.mjs,
// data in testdata/data.json) and the abstract schema of interfaces and
// unions (abstract_schema_test.go and node/abstract-schema.mjs), built from
// the schemas of graphql-js's own abstract-type tests (abstract-test,
// union-interface-test, OverlappingFieldsCanBeMerged). A corpus case runs
// on the library unless it says "schema": "abstract".
//
// Every document of the corpus (testdata/corpus/*.json) runs through both
// implementations. It covers fragments, variables and their coercion
// failures, directives, aliases, resolver errors, null bubbling, lists of
// non-null, enums, custom scalars, introspection, syntax and validation
// errors; and, in abstract-*.json, the execution cases of abstract-test and
// union-interface-test, how a value is matched to its object and every way
// that can fail, fragments on interfaces and unions, __typename, the
// interface and union cases of the rules PossibleFragmentSpreads,
// FieldsOnCorrectType and OverlappingFieldsCanBeMerged, and the
// introspection of possibleTypes and interfaces. The two must agree on
//
//   - validity: whether the request was accepted for execution (it parsed,
//     validated, its variables coerced and an operation was selected);
//   - data, exactly, including the order of object members;
//   - the paths and locations of the errors (not their messages).
//
// Two more checks, for each schema, use introspection: graphql-js's
// printSchema must print the same SDL for its own schema, for what
// gqlkit's Schema.SDL prints and for the schema that graphql-js's
// buildClientSchema builds from gqlkit's answer to getIntrospectionQuery
// with every option. Some arguments and input fields have validation
// rules, which gqlkit appends to their descriptions ("Rules: ...");
// node/schema.mjs writes the same descriptions out. The example server's
// TestSchemaExport runs the second check on its own schema, through the
// same scripts (package internal/graphqljs runs them).
//
// TestConformanceSchemaChecks (schemacheck_test.go) compares the schema
// checks: schemas written in SDL, after the interface and union cases of
// graphql-js's validation-test, go through graphql-js's buildSchema and
// validateSchema and, built with gqlkit's Go API, through NewSchema. Both
// must refuse the same schemas, finding as many problems.
//
// Where gqlkit differs on purpose, the case names an entry of DEVIATIONS.md
// and states the intended outcome; nothing is skipped silently.
//
// # Running it
//
// graphql-js is pinned (node/package.json, node/package-lock.json). The
// test installs it itself with npm ci, once, outside the source tree: in
// <user cache dir>/gqlkit/conformance-<hash of package.json and
// package-lock.json> (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux), which node/graphql.mjs reads through GQLKIT_GRAPHQL_JS_PREFIX.
// Then
//
//	go test -run TestConformance -v ./graphql/conformance
//
// prints one subtest per case and a closing line "conformance: N passed,
// N failed". Without node or npm, or when npm ci fails (no registry), the
// test is skipped with the reason; with CI set in the environment it fails
// instead. To run the node side by hand, npm ci in graphql/conformance/node
// (node_modules there is ignored by git and by the test).
package conformance
