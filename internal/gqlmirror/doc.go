// Package gqlmirror holds the parts of the kit that do what
// github.com/vektah/gqlparser/v2 does, faster: they must keep doing exactly
// what gqlparser does, and were checked against one version of it,
// [CheckedVersion]. They sit at the module's top, below both package
// graphql and package limits, so that the two read a document the same
// way; they import neither.
//
//   - syntax: the lexer and parser, which read a document into the very AST
//     gqlparser's parser reads, and fail with its messages. Package graphql
//     parses every document with it (graphql.ParseQuery, graphql.Parser),
//     and so does limits.Config.Check, which returns gqlparser's error
//     values for a syntax error;
//   - validation: a fast path that accepts the documents gqlparser's rules
//     accept, and the rules that take the place of two of gqlparser's
//     (OverlappingFieldsCanBeMerged, ValuesOfCorrectType) with the same
//     messages. The kit's own rule for custom scalar literals sits beside
//     them, as it shares their walk.
//
// The document scanner of the limits package (limits/scan.go and
// limits/outline.go) is a mirror too: it reads the grammar gqlparser reads,
// to bound a document before it is parsed. It stays in limits, as it is
// that package's own job and nothing else uses it.
//
// Each mirror is held to gqlparser by a fuzz target that compares the two
// on any input (FuzzQuickParse, FuzzQuickValid, FuzzValidateLikeReference,
// and limits' FuzzScan, FuzzScanBounds and FuzzCheckDocument, which
// compares Check's document or error with gqlparser's parser). When go.mod moves gqlparser
// to another version, TestGqlparserVersion fails: run those targets on the
// new version, read its changes, then update CheckedVersion.
package gqlmirror

// CheckedVersion is the version of github.com/vektah/gqlparser/v2 that the
// mirrors were checked against.
const CheckedVersion = "v2.5.64"
