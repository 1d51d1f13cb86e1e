package limits

import "math"

// The maxima a zero [Config] uses.
const (
	// DefaultMaxLength is the default maximum size of a query, in bytes
	// (the specification's max_query_length).
	DefaultMaxLength = 20000
	// DefaultMaxTokens is the default maximum number of lexical tokens in a
	// query (the specification's fixed parser token limit).
	DefaultMaxTokens = 20000
	// DefaultMaxNesting is the default maximum number of brackets
	// ({, [ and ( together) open at any point of a query (the
	// specification's fixed parser nesting limit).
	DefaultMaxNesting = 64
	// DefaultMaxDepth is the default maximum depth of field selections in
	// an operation (the specification's max_depth).
	DefaultMaxDepth = 10
	// DefaultMaxNodes is the default maximum number of field nodes in an
	// operation, counted after fragment expansion (the specification's
	// max_nodes).
	DefaultMaxNodes = 500
)

// NoLimit turns a limit off when set in a [Config] field. Any negative
// value does the same.
const NoLimit = -1

// Config holds the five maxima. Each field's zero value means its default,
// and a negative value (such as [NoLimit]) turns that limit off, so the zero
// Config enforces every default and a Config with every field set to
// NoLimit measures without ever returning an [*Error].
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
	// MaxNodes is the maximum number of field nodes in an operation after
	// fragment expansion. Zero means DefaultMaxNodes.
	MaxNodes int
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
	}
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
