package graphql

// costState is what an Operation keeps to compute its cost (see [Cost]).
type costState struct{}

// cost returns the operation's cost under the coerced variables vars.
func (op *Operation) cost(vars map[string]any) int { return 0 }
