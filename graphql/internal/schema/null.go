package schema

// NullValue is the type of [Null]; package graphql names it for its own
// Null constant, which is this one.
type NullValue uint8

// Null is graphql.Null: as a Default, an explicit default of null;
// returned by a custom scalar's parser, an input that stands for null;
// returned by a resolver, null.
const Null NullValue = 1
