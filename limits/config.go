package limits

import "math"

// The maxima a zero [Config] uses.
const (
	// DefaultMaxLength is the default maximum size of a query, in bytes
	// (GRAPHQL_MAX_QUERY_LENGTH for graphqlhttp.ConfigFromEnv).
	DefaultMaxLength = 20000
	// DefaultMaxTokens is the default maximum number of lexical tokens in a
	// query (a fixed bound of the parser: no environment variable).
	DefaultMaxTokens = 20000
	// DefaultMaxNesting is the default maximum number of brackets
	// ({, [ and ( together) open at any point of a query (a fixed bound
	// of the parser: no environment variable).
	DefaultMaxNesting = 64
	// DefaultMaxDepth is the default maximum depth of field selections in
	// an operation (GRAPHQL_MAX_DEPTH).
	DefaultMaxDepth = 10
	// DefaultMaxNodes is the default maximum number of field nodes in a
	// document, counted after fragment expansion (GRAPHQL_MAX_NODES):
	// each operation's with the fragments it spreads, added up.
	DefaultMaxNodes = 500
	// DefaultMaxCost is the default maximum cost of an operation: the
	// sum, over its fields, of each field's weight plus its size times the
	// cost of its sub-selection (see graphql.Cost), computed by the
	// engine once the variables are coerced.
	//
	// 5000 lets through what the other defaults let through at a sane
	// page size, and stops what they do not. In the sample schema
	// (examples/server), Query.posts(first: Int = 10) is the only list of
	// objects, declared with Cost{SizeArg: "first", MaxSize: 50} (its
	// resolver clamps first to 50): a document within
	// 500 nodes and depth 10 that asks for at most 10 posts per list
	// costs at most 1 + 10 × 499 = 4991 (one posts field whose 499 other
	// fields all sit under it, each counted 10 times; nesting lists deeper
	// is impossible, as posts is the only list). Whereas 500 aliases of
	// posts(first: 50) { author { name } } cost 500 × (1 + 50 × 2) =
	// 50,500, and 50 such aliases already 5,050.
	DefaultMaxCost = 5000
)

// NoLimit turns a limit off when set in a [Config] field. Any negative
// value does the same.
const NoLimit = -1

// Config holds the six maxima. Each field's zero value means its default,
// and a negative value (such as [NoLimit]) turns that limit off, so the zero
// Config enforces every default and a Config with every field set to
// NoLimit measures without ever returning an [*Error].
//
// The package checks the first five itself. MaxCost it only holds: the cost
// depends on the schema and on the variables, so the engine (package
// graphql) computes it after coercing the variables, and the HTTP layer
// (graphqlhttp) refuses an operation over it before any resolver runs.
//
// A Config is a plain value: its methods never modify it and are safe to
// call from many goroutines at once.
type Config struct {
	// MaxLength is the maximum size of the query text in bytes.
	// Zero means DefaultMaxLength.
	MaxLength int
	// MaxTokens is the maximum number of lexical tokens, comments included.
	// Zero means DefaultMaxTokens.
	MaxTokens int
	// MaxNesting is the maximum number of brackets ({, [, ( together) open
	// at once. Zero means DefaultMaxNesting.
	MaxNesting int
	// MaxDepth is the maximum depth of field selections in an operation.
	// Zero means DefaultMaxDepth.
	MaxDepth int
	// MaxNodes is the maximum number of field nodes in a document after
	// fragment expansion, its operations' added up (see CheckDocument).
	// Zero means DefaultMaxNodes.
	MaxNodes int
	// MaxCost is the maximum cost of an operation, with its variables
	// (see graphql.Cost). Zero means DefaultMaxCost. The checks of this
	// package ignore it: see [Config.CheckCost].
	MaxCost int
}

// Effective returns c with every zero field replaced by its default and
// every negative field set to [NoLimit]: the maxima that c enforces.
// A caller that bounds a request body by the query length, for example,
// reads Effective().MaxLength and treats NoLimit as no bound.
func (c Config) Effective() Config {
	return Config{
		MaxLength:  effective(c.MaxLength, DefaultMaxLength),
		MaxTokens:  effective(c.MaxTokens, DefaultMaxTokens),
		MaxNesting: effective(c.MaxNesting, DefaultMaxNesting),
		MaxDepth:   effective(c.MaxDepth, DefaultMaxDepth),
		MaxNodes:   effective(c.MaxNodes, DefaultMaxNodes),
		MaxCost:    effective(c.MaxCost, DefaultMaxCost),
	}
}

// CheckCost returns an [*Error] for Cost when cost, an operation's cost as
// the engine computed it, is over c's MaxCost, and nil otherwise (or when
// the limit is off). The error carries no location: a cost belongs to the
// whole operation.
func (c Config) CheckCost(cost int) error {
	if max := bound(c.MaxCost, DefaultMaxCost); cost > max {
		return &Error{Limit: Cost, Max: max, Found: cost}
	}
	return nil
}

func effective(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return NoLimit
	}
	return v
}

// bound is effective for comparisons: a limit that is off becomes
// math.MaxInt, which no count exceeds.
func bound(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt
	}
	return v
}
