// Package graphql is gqlkit's GraphQL engine: a schema defined in Go code, and
// an executor over documents in the AST of github.com/vektah/gqlparser/v2,
// parsed by the kit's own parser and validated by gqlparser's rules. It
// knows nothing of HTTP; package graphqlhttp serves it.
//
// # Defining a schema
//
// Types are Go values. Scalars are the constants [Int] (32-bit), [Float],
// [String], [Boolean], [ID], or a custom [*Scalar] with a name, a Serialize and a
// ParseValue function. An [*Enum] maps names to internal Go values; an
// [*InputObject] lists fields with optional defaults; an [*Object] lists its
// fields, either directly as [Fields] or lazily as a [FieldsFunc] so that
// types can refer to each other. [NewList] and [NewNonNull] wrap types.
//
//	type User struct {
//		ID   string
//		Name string
//	}
//	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
//		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},     // read from User.ID
//		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
//	}}
//	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
//		{Name: "user", Type: user,
//			Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID),
//				Rules: []validate.Rule{validate.Max(20)}}},
//			Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ ID string }) (*User, error) {
//				return users.Find(ctx, args.ID)
//			})},
//	}}
//	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
//
// # Typed resolvers
//
// [Resolver] and [ResolverWithInfo] bind a function of Go types,
// func(ctx, parent P, args A) (R, error), to a field (Field.Typed). The
// arguments arrive decoded into the struct A by their names (see Field
// names below): input
// objects into structs, lists into slices, enums into the Go type of their
// values, with [Opt] to tell an absent argument from an explicit null.
// NewSchema checks A, P and R against the schema, and learns the Go types
// of objects from the typed resolvers that return them and the struct
// fields those lead to, so that a mismatch anywhere (a string for an enum
// of a defined type, a struct value where the parent is a pointer, a field
// a Go type lacks) is a NewSchema error rather than a wrong answer. The
// decode plan of each args type is built once. An untyped [ResolveFunc]
// (Field.Resolve) receives the arguments as [Args], whose accessors return
// an error rather than a zero value for a value of another type.
//
// # Validating arguments
//
// Argument.Rules and InputField.Rules hold rules of package
// github.com/gqlkit/gqlkit/validate (Required, Max, Between, OneOf,
// Pattern, Email, Each, Func …). They run on the coerced values after the
// field's middleware and before its resolver; the failures of one field's
// arguments, input fields included (rules on an input object's fields
// apply wherever it is used), come back as one VALIDATION_FAILED error with
// extensions.validation keyed by path ("input.title") and Laravel's
// messages ("The title field is required."). The articles REST API uses
// the same rules, so both APIs word a failure alike.
//
// Clients see the rules: each argument and input field that has some gets
// them in words (validate.Describe) appended to its description, in a
// paragraph of its own ("Rules: required; at most 200 characters."), in
// introspection and in [Schema.SDL] alike.
//
// [NewSchema] checks every definition (names, duplicates, input and output
// positions, defaults against their types, empty types, missing scalar
// functions) and reports every problem at once (a panic in a function of
// yours that it calls, such as a Serialize checking a default, ends the
// check with that one error); it never panics. The schema is safe for
// concurrent use. It keeps and reads the definitions you gave it
// (descriptions, enum values, scalar functions), so do not change them
// after NewSchema. [Schema.SDL] prints it as graphql-js's printSchema would.
//
// # Interfaces and unions
//
// An [*Interface] lists the fields that every type implementing it has; an
// object, or another interface, names the interfaces it implements in its
// Interfaces and declares their fields itself, with its own resolvers. A
// [*Union] lists member objects, which need share no field. A field of
// either type returns a value of one of their possible objects, whose own
// fields a client selects with fragments ("... on Book { isbn }"):
//
//	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{
//		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
//	}}
//	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{node},
//		Fields: graphql.Fields{
//			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
//			{Name: "isbn", Type: graphql.String},
//		}}
//	search := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author}}
//
// An object that implements an interface but that no field returns must
// be listed in SchemaConfig.Types to be one of its possible objects.
// NewSchema checks every implementation as graphql-js's validateSchema
// does (each field of the interface, with a type that fits and the same
// arguments; the interfaces of the interface; no cycles; union members
// listed once) and refuses resolvers, middleware and costs on an
// interface's fields, which its objects' own fields carry.
//
// The object of each value is found, in order, by the abstract type's
// ResolveType; by the value's Go type, when NewSchema learnt it for
// exactly one of the possible objects (from typed resolvers and the
// struct fields they lead to, as under Typed resolvers); by a map's
// "__typename" entry; or by the first possible object whose IsTypeOf
// accepts it. A value that none of them places is a masked field error
// at its path (see [ResolveTypeFunc]); a typed resolver whose Go result
// no rule could ever place is a NewSchema error.
//
// Prepare plans the selection of such a field once for each possible
// object, so that a value runs with its object's resolvers and fast paths
// as an object field does, and __typename writes the object's name. A
// batched field (see Batch resolvers) of an object reached through a list of an
// interface or union, or through a batched field of one, is called once
// for all the values of that object at that level. An operation's cost
// counts such a selection as its most costly possible object's.
//
// # Field names
//
// A struct field stands for the schema field (or argument, or input
// field) that its `graphql` tag names; without one, its `json` tag name;
// without either, its Go name (an argument or input field: the Go name
// with its leading capitals lowered, ID → id, CreatedAt → createdAt). So
// a DTO whose json tags serve a REST API in snake_case serves the schema
// in camelCase with graphql tags beside them:
//
//	type Book struct {
//		PublishedAt time.Time `json:"published_at" graphql:"publishedAt"`
//		Notes       string    `json:"notes" graphql:"-"`
//	}
//
// `graphql:"-"` leaves a field out of the schema whatever its json tag
// (a schema field of that name is then a NewSchema error for a typed
// result, and an input field of that name is not decoded into it);
// `json:"-"` does too, unless a graphql tag names the field. The same
// names serve resolving, decoding and NewSchema's type checks.
//
// # Resolving fields
//
// A field without a resolver (Typed or Resolve) reads the same-named entry of its
// parent value: a map key, an exported struct field (a tag name wins, see
// Field names below, then the Go name with its first letter upper-cased,
// then a case-insensitive match), or a method with no arguments (or a
// context.Context) returning a value and optionally an error. The lookup
// for each Go type is computed once and cached. Only declared fields are
// reachable: struct fields the schema does not declare are never exposed.
// A String, ID, Int, Boolean, [String] or [ID] field read from a string,
// signed integer, bool or []string struct field through a pointer is written straight
// from the struct, at the field's offset, with the same output as the
// general path.
//
// A resolver receives the request context, the parent value, the
// arguments (decoded into its args type, or as read-only [Args]) and, if
// it asks, a [ResolveInfo] of its own (both may be kept after the call). [ResolveInfo.SelectedFields]
// and [ResolveInfo.IsSelected] tell which sub-fields the client asked for,
// after fragments and @skip/@include, so that related rows can be loaded
// eagerly (one query for all authors of a page of posts, and none when no
// author is selected).
//
// # Batch resolvers
//
// A field whose value is loaded from a store per parent (a post's author,
// a book's reviews) makes one statement per parent when it has a plain
// resolver. A batch resolver ([Batch], set as Field.Batch) is given every
// parent of the field at one level of the answer at once, as a typed
// slice, and returns one result per parent: the executor collects the
// items of a list of objects (across nested lists and aliases with the
// same arguments) before it writes the first one, calls each batched
// field once for all of them, and carries on level by level through the
// results (and through fields read from their parent, such as a
// connection's edges and node), so that
// books { author { books { reviews { id } } } } costs one call per
// batched field. [ItemErrors] fails some parents only; the
// middleware, the argument rules and a [Tracer] see one call per batch,
// with a [BatchParents] parent. Nothing runs on another goroutine, and
// nothing waits for a timer or is cached across requests.
//
// Lists that grow are paginated with package
// github.com/gqlkit/gqlkit/graphql/relay: Relay connections read by keyset,
// with opaque cursors, a clamped page size that [Cost] counts, and a
// totalCount computed only when selected.
//
// Results are completed as the GraphQL specification says: scalars are
// serialised (an Int out of 32-bit range is a field error), enums written
// by name, pointers followed, nil is null. A nil slice is null in a
// nullable list position and [] in a non-null one. A resolver's error, or
// its panic (recovered as a [*PanicError]), makes the field null and adds
// an error with the field's path and locations; a null in a non-null
// position makes the nearest nullable parent null. Root fields of a
// mutation run one after another, in document order; all fields run on the
// request's goroutine. Once the context is done (the client went away, a
// deadline passed), no further Resolve function is called: the fields left
// are null and one error carries ctx.Err().
//
// # Executing a document
//
// A request goes through four steps, which graphqlhttp runs with limits
// and a cache; [Schema.Do] runs them in one call for tests and trusted
// callers:
//
//  1. [ParseQuery]: the kit's own parser reads the document into
//     gqlparser's AST, the same node for node as gqlparser's parser would
//     make it (comments, descriptions, escapes and block strings included),
//     and refuses what gqlparser refuses with the same message and
//     location, taking its nodes from a few chunks of memory instead of
//     allocating them one by one. A [Parser] does the same and reuses the
//     memory of what a document's list and object literals hold once the
//     document is released: once prepared, an Operation reads nothing
//     inside them (it coerces again only copies of them);
//  2. [Schema.Validate]: gqlparser's rules (those of graphql-js), plus the
//     kit's: Int literals must fit in 32 bits and custom scalar literals must
//     parse; with [ValidateOptions.DisableIntrospection], __schema and
//     __type are refused and messages carry no suggestions. A document that
//     certainly passes them all (the common case: known fields, arguments
//     and fragments, built-in scalar, enum and input literals, @skip and
//     @include, no introspection) is accepted by one quick walk without
//     running them; any other document, and so every error, goes through
//     the rules. Two of them are the kit's own, with gqlparser's messages
//     at a bounded cost (OverlappingFieldsCanBeMerged and
//     ValuesOfCorrectType); list items the rules cannot fault are set
//     aside while they walk, and with [ValidateOptions.MaxErrors] they stop
//     once the caller has all the errors it will show;
//  3. [Schema.Prepare] selects the operation and plans it once: fragments
//     expanded, fields looked up, literal arguments coerced, static
//     @skip/@include applied. An [*Operation] is reusable and safe for
//     concurrent use; cache it with its document;
//  4. [Operation.Execute]: variables are coerced by the kit itself (Int
//     checked to 32 bits and never taken from a string, enum names matched
//     exactly and mapped to internal values, custom scalars parsed, input
//     defaults applied, unknown input fields refused, nullability checked);
//     values nested more than 256 levels deep are refused (graphqlhttp
//     refuses JSON variables past 64 before this);
//     any failure is reported before a single resolver runs, and the result
//     then has no data. Otherwise the response is written straight into a
//     byte buffer, in selection order, without building a map of the result.
//
// Errors found before execution wrap [ErrInvalidVariables],
// [ErrInvalidOperation] or [ErrInvalidDocument]; validation errors carry
// the gqlparser rule that found them.
//
// # Introspection
//
// __schema, __type(name:) and __typename are answered from the schema
// definitions, with the built-in types and directives of graphql-js 16, so
// that graphql-js's getIntrospectionQuery (every option) gives a result that
// buildClientSchema accepts and printSchema prints exactly as [Schema.SDL].
// Types come in a stable order: the order in which graphql-js collects them.
// An interface's possibleTypes are the objects that implement it, in that
// order; a union's are its members, in the order declared.
//
// # Not supported
//
// Subscriptions, custom directives and SDL-first schemas.
package graphql
