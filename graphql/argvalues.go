package graphql

// This file connects package graphql to the coercion of input values
// (package internal/coerce).

// argsOf wraps the argument values coerce.ArgumentValues returns for a
// resolver.
func argsOf(m map[string]any, err error) (Args, error) { return Args{m: m}, err }
