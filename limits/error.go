package limits

import "fmt"

// Name identifies one of the six limits. Its string form is the name the
// HTTP layer reports in extensions.limit.name.
type Name string

// The six limits. The package checks the first five; Cost is computed by
// the engine, after the variables are coerced (see [Config.CheckCost]).
const (
	Length  Name = "length"  // bytes of query text ([Config.MaxLength])
	Tokens  Name = "tokens"  // lexical tokens ([Config.MaxTokens])
	Nesting Name = "nesting" // brackets open at once ([Config.MaxNesting])
	Depth   Name = "depth"   // depth of field selections ([Config.MaxDepth])
	Nodes   Name = "nodes"   // field nodes after fragment expansion ([Config.MaxNodes])
	Cost    Name = "cost"    // cost of the operation with its variables ([Config.MaxCost])
)

// Error reports a query that crosses a limit. It is the only error type the
// package produces; test for it with errors.As. Its message names no part
// of any schema and is safe to show to clients.
type Error struct {
	// Limit is the limit crossed.
	Limit Name
	// Max is the maximum in force (defaults applied).
	Max int
	// Found is the value measured when checking stopped; it is always
	// greater than Max. For Length it is the size of the whole query. For
	// Depth and Nodes it is the value of the operation or unused fragment
	// at fault; a node count that does not fit in an int saturates at
	// math.MaxInt. When [Config.Scan] reports Depth or Nodes, it is the
	// value of the fields written in the operation or fragment definition
	// at fault, fragment spreads not expanded: a lower bound. For Tokens and
	// Nesting it is Max+1, because the scan stops at the first token or
	// bracket over the maximum, so the query may hold more. For Cost it is
	// the operation's cost, which saturates at math.MaxInt.
	Found int
	// Line and Column locate where the limit was crossed, counting from 1
	// (columns in runes, as gqlparser counts them), or are 0 when there is
	// no single place (Length, Cost) or the document carries no positions.
	// Tokens and Nesting point at the first token or bracket over the
	// maximum; Depth and Nodes at the first field (at its alias, if any) or
	// fragment spread (gqlparser places a spread at the fragment's name)
	// that takes the count over.
	Line, Column int
}

// Error returns a message such as "query depth 11 exceeds the maximum of
// 10", without the location.
func (e *Error) Error() string {
	switch e.Limit {
	case Length:
		return fmt.Sprintf("query length %d bytes exceeds the maximum of %d bytes", e.Found, e.Max)
	case Tokens:
		return fmt.Sprintf("query token count %d exceeds the maximum of %d", e.Found, e.Max)
	case Nesting:
		return fmt.Sprintf("query bracket nesting %d exceeds the maximum of %d", e.Found, e.Max)
	case Depth:
		return fmt.Sprintf("query depth %d exceeds the maximum of %d", e.Found, e.Max)
	case Nodes:
		return fmt.Sprintf("query node count %d exceeds the maximum of %d", e.Found, e.Max)
	case Cost:
		return fmt.Sprintf("query cost %d exceeds the maximum of %d", e.Found, e.Max)
	}
	return fmt.Sprintf("query limit %q: found %d exceeds the maximum of %d", string(e.Limit), e.Found, e.Max)
}
