// Package limits checks GraphQL queries against five limits before they
// are validated: length, tokens and nesting on the raw text, depth and
// nodes on the parsed document, and, already on the raw text, depth and
// nodes as far as the text shows them. It knows nothing of any schema and
// works on gqlparser's AST, so it can guard any gqlparser-based server.
//
// A sixth limit, the cost of an operation, lives in the same [Config] and
// is reported with the same [*Error], but this package does not compute
// it: the cost weighs each field by the size of the lists it sits in (see
// graphql.Cost), which takes the schema and the coerced variables, so the
// engine (package graphql) computes it after coercing the variables, and
// the HTTP layer (graphqlhttp) refuses an operation over MaxCost before any
// resolver runs.
//
// The limits exist because the expensive steps of a GraphQL server grow
// faster than the query: gqlparser's OverlappingFieldsCanBeMerged rule is
// quadratic in the fields of a selection set (2000 conflicting fields in a
// 20 KB query take seconds and produce a million errors), and a chain of
// 40 fragments, each spreading the next twice, stands for 2³⁹ fields.
// Each check here is linear in the size of the query and runs before
// those steps. Parsing itself is not cheap either (1 to 5 ms for 20 KB of
// fields), so the raw-text scan also rejects a query that is too deep or
// too wide in its own text, in microseconds, before it is parsed.
//
// # Where the checks run
//
// A server runs them in this order, and stops at the first limit crossed:
//
//  1. [Config.Scan] reads the raw text: length, then tokens and nesting,
//     and lower bounds of depth and nodes.
//  2. A parser reads the text into gqlparser's AST, with MaxTokens as its
//     token limit: gqlparser's parser.ParseQueryWithTokenLimit, or the
//     kit's own parser, which reads every text exactly as that function
//     does (the same document, node for node and position for position,
//     or the same error) without allocating for every token. Package
//     graphql and [Config.Check] use the kit's parser.
//  3. [Config.CheckDocument] walks the parsed, not yet validated, document:
//     depth and nodes.
//  4. gqlparser validates the document against the schema.
//
// [Config.Check] runs steps 1 to 3 for a caller that uses the package on
// its own. Step 3 runs before validation so that a document that is too
// deep and also invalid is reported as too deep, and so that no hostile
// document reaches the validator.
//
// # The limits and their defaults
//
// A [Config] holds the six maxima. The zero Config enforces the defaults
// below; a field set to a positive value replaces its default, and a
// negative one (such as [NoLimit]) turns that limit off. [Config.Effective]
// tells the maxima a Config enforces.
//
//	field        limit (Name)  default                     counts
//	MaxLength    length        DefaultMaxLength  = 20000   bytes of query text
//	MaxTokens    tokens        DefaultMaxTokens  = 20000   lexical tokens, comments included
//	MaxNesting   nesting       DefaultMaxNesting = 64      brackets { [ ( open at once
//	MaxDepth     depth         DefaultMaxDepth   = 10      fields nested in fields
//	MaxNodes     nodes         DefaultMaxNodes   = 500     fields after fragment expansion
//	MaxCost      cost          DefaultMaxCost    = 5000    fields weighted by list sizes
//
// A value exactly at its maximum passes; one more fails.
//
// # Cost
//
// The node limit counts each field once, however many items the lists
// above it hold: 500 aliases of posts(first: 50) { author { name } } are
// 1500 nodes, but ask for 25,000 posts and as many authors. The cost
// counts what a query asks for: a field costs its weight (1 by default)
// plus, when it has a sub-selection, the cost of the sub-selection times
// the field's size, the value of the argument that bounds its list (first,
// limit) once variables are coerced. That query costs 500 × (1 + 50 × 2) =
// 50,500. The schema declares each field's weight and size argument
// (graphql.Field.Cost), the engine computes the cost of an operation with
// its variables, and graphqlhttp compares it with MaxCost, through
// [Config.CheckCost] or as it likes: the error is an [*Error] whose Limit
// is [Cost], without a location. DefaultMaxCost explains its value.
//
// # Length, tokens and nesting
//
// Length is len(query): bytes, not characters. A query over MaxLength is
// rejected before a single byte is read, so a server should also cap the
// request body at the same size.
//
// Tokens are counted the way gqlparser's parser counts them: every
// punctuator (! $ & ( ) ... : = @ [ ] { } |), name, number, string, block
// string and comment is one token; white space, line terminators, commas
// and a byte order mark are not. Comments count because gqlparser's
// token limit counts them too (graphql-js's does not): with the same
// maximum, a query that passes Scan does not fail the parser's token limit.
// For example:
//
//	query Q($id: ID!) { post(id: $id) { title } }  # 21 tokens, nesting 2
//
// With the default length a query cannot hold more than 20000 tokens, as
// every token takes at least a byte; the token limit matters when the
// length limit is raised or off.
//
// Nesting is the largest number of brackets open at once, with {, [ and (
// counted together, so an argument list, a list value or a list type is a
// level just as a selection set or an object value is. In
//
//	{ posts(filter: {tags: ["a"]}) { title } }
//
// the nesting is 4: {, (, {, [. It bounds the recursion of the parser and
// of the validator's value rules, which are quadratic in the depth of a
// value. gqlparser has its own, fixed, nesting cap of 1000.
//
// [Config.Scan] finds strings, block strings and comments as gqlparser's
// lexer does, so brackets inside them count neither as tokens nor as
// nesting: a string ends at an unescaped " (\" is an escape), a block
// string at the last three quotes of a run of three or more (\""" is an
// escape, and nothing else is), and a comment at the end of its line. Text
// that is not GraphQL never makes Scan fail: a string left open ends at the
// end of its line, a block string left open at the end of the text, and a
// stray character is one token; the parser rejects such text afterwards.
//
// # Depth and nodes
//
// Depth counts fields: { a } is depth 1 and { a { b } } depth 2. Inline
// fragments and fragment spreads add no depth of their own: a fragment's
// fields sit at the depth of the spread. Nodes counts field nodes once
// every fragment spread is replaced by the fragment's fields, as often as
// it is spread. __typename is a field like any other. In
//
//	query Feed {
//	  posts {              # depth 1
//	    title              # depth 2
//	    author { name }    # depths 2 and 3
//	    ...Meta
//	  }
//	  __typename           # depth 1
//	}
//	fragment Meta on Post {
//	  createdAt            # depth 2, where Meta is spread
//	  author { id }        # depths 2 and 3
//	}
//
// the depth is 3 and there are 8 nodes: posts, title, author, name,
// createdAt, author, id and __typename.
//
// Depth is measured per operation: every operation of the document must be
// within it on its own. Nodes are measured on the whole document: every
// operation's nodes, with the fragments it spreads expanded, are added up,
// and so are those of fragments no operation spreads. The validator walks
// every operation of a document with all it spreads, whichever operation a
// request runs, so that is the work a document asks for: 600 operations
// that each spread one fragment of 450 fields are 270,000 nodes, not 450.
// (Until 2026-11-28 nodes were measured per operation too, and such a
// document took over 100 ms to validate.) [Config.CheckDocument] checks
// every operation, which is what a cache keyed by query text needs, as any
// operation of a cached document may be run later;
// [Config.CheckOperation] checks one, and counts its nodes alone.
//
// # Depth and nodes before parsing
//
// [Config.Scan] follows the selection sets of the raw text and counts the
// fields written in it and, for each operation and fragment definition,
// their depth, without expanding fragment spreads. [Stats] reports the
// fields of all definitions as Fields and the largest depth as Depth. A
// field is counted once with its alias (the error points at the alias, as
// gqlparser places the field); names in arguments, variable definitions,
// directives, fragment spreads, type conditions and definition headers are
// not fields, and brackets in values, strings and comments are not
// selection sets. __typename is a field, and __schema, __type and their
// sub-trees add no depth, as above. For
//
//	query Feed { posts { title author { name } ...Meta } __typename }
//	fragment Meta on Post { createdAt author { id } }
//
// the scan finds depth 3 and 8 fields (5 in Feed, 3 in Meta), and
// CheckDocument depth 3 and 8 nodes; were Meta spread twice, it would find
// 11 nodes.
//
// Both are lower bounds of what [Config.CheckDocument] finds, so Scan
// rejects a document for depth or nodes only if CheckDocument would reject
// it too:
//
//   - An operation's written fields are among its nodes, at the same depth.
//   - A fragment's written fields are counted into every operation (or
//     unused fragment) that spreads it, through any chain of spreads, so
//     at least once; a fragment that none spreads is checked as if it were
//     an operation. A spread of an unknown fragment, or one that closes a
//     cycle, counts nothing in CheckDocument, and the scan counts no spread
//     at all.
//   - A fragment's depth counts wherever it is spread, except inside an
//     introspection sub-tree, where CheckDocument drops it. So the scan
//     reports a fragment too deep only once it has read the whole text, and
//     leaves fragment depths out if the text spreads any fragment inside
//     __schema or __type (as the standard introspection query does).
//
// An operation too deep, or the definition whose fields take the
// document's over the maximum, stops the scan at the end of that
// definition, with the error CheckDocument would report for it: depth
// before nodes, the definition's depth or the fields so far, and the place
// of the first field over the maximum. For a document without
// fragments, that is exactly CheckDocument's error. 20 KB of 2000
// conflicting aliases, or of selection sets nested 64 deep, is rejected in
// well under a millisecond, where parsing it takes 1 to 3 ms. What the scan
// cannot see, such as fragment bombs, CheckDocument still catches after
// parsing. The bounds are about CheckDocument, which checks every
// operation; a caller that checks one operation with [Config.CheckOperation]
// should know that Scan may reject the document for another.
//
// # Fragments
//
// The document is checked before validation, so it may spread fragments
// that do not exist, or that spread each other in a cycle. A spread of an
// unknown fragment counts nothing, and so does a spread that re-enters a
// fragment being expanded; validation (KnownFragmentNames,
// NoFragmentCycles) rejects both documents afterwards. When two fragments
// share a name, spreads use the first, as gqlparser does.
//
// Each fragment is expanded once: its depth and node count are computed
// the first time it is spread and reused for every later spread. Checking
// therefore costs time linear in the size of the document, whatever the
// expansion would hold: a 40-level chain in which each fragment spreads
// the next twice holds 2³⁹ nodes and is rejected in microseconds, with
// the exact count. Node counts saturate at math.MaxInt instead of
// overflowing.
//
// The validator walks every fragment definition, used or not, so
// [Config.CheckDocument] also checks each fragment that no operation
// spreads as if it were an operation. (Such a document fails validation
// anyway, NoUnusedFragments, but only after the expensive rules ran.)
//
// # Introspection
//
// A field named __schema or __type is the root of an introspection
// sub-tree. Its fields, itself included, count as nodes but add no depth:
// the standard introspection query of graphql-js, with every option, is
// 15 fields deep (its TypeRef fragment alone nests ofType nine times) but
// holds 230 nodes, so it passes the default limits. Introspection depth
// is bounded instead by the validator's MaxIntrospectionDepth rule (one of
// gqlparser's default rules) and by the nesting limit. Counting the nodes
// keeps a wide introspection selection, such as two thousand conflicting
// aliases under __type, away from the quadratic validation rule.
//
// # Errors
//
// Every limit crossed is reported as an [*Error], the package's only
// error type, carrying the limit's [Name], the maximum in force, the value
// found and, when there is one, the place:
//
//	var lerr *limits.Error
//	if errors.As(err, &lerr) {
//		// lerr.Limit == limits.Depth, lerr.Max == 10, lerr.Found == 11
//	}
//
// Its message, such as "query depth 11 exceeds the maximum of 10", names
// nothing of the schema and may be shown to clients; gqlkit's HTTP layer
// sends it with the code QUERY_LIMIT_EXCEEDED and extensions.limit =
// {name, max, found}. Found is exact for length, and for depth and nodes
// found by CheckDocument (nodes up to math.MaxInt); depth and nodes found
// by Scan are those written in the definition at fault, a lower bound.
// Scan stops at the first token or bracket over the maximum, so for tokens
// and nesting Found is Max+1: a lower bound too. Line and Column count as
// the GraphQL specification does; after a CRLF line break between tokens,
// gqlparser (and so CheckDocument) counts one column more.
// [Config.Check] returns, for a syntax error, the *gqlerror.Error that
// gqlparser's parser returns for that text: its message and location.
//
// # Measuring
//
// With every field set to [NoLimit], Scan and CheckDocument never fail and
// return the full [Stats] and [DocStats] of a query, which is how the
// command in examples/limits prints all five numbers (and the lower bounds
// of depth and nodes when the query does not parse).
//
// # Cost and concurrency
//
// Scan reads the text once, byte by byte, and allocates nothing unless it
// fails or an operation declares more than 32 variables: a few hundred nanoseconds for a typical query, and 20 to 150
// microseconds for 20 KB depending on how dense its tokens are (text made
// only of brackets and one-letter names is the slowest), where gqlparser
// takes 1 to 5 ms to parse the same text.
// CheckDocument allocates a little only for documents with fragments.
// Neither modifies its arguments; a Config and a parsed document may be
// shared by any number of goroutines.
package limits
