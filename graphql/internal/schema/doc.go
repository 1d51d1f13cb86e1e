// Package schema is the schema as the engine runs it: every type
// reference compiled to a [Type] whose [Kind] says what it is, the named
// types sharing one node each, and every resolver adapted once to
// [Resolver]. Package graphql builds it from the definitions given to
// NewSchema (after checking them); planning, execution and coercion read
// only this, never the public definitions, whose Go types they do not
// switch on. Def fields lead back to those definitions for what
// resolvers are shown (ResolveInfo.ReturnType, ParentType).
package schema
