// Package relay builds Relay cursor connections over the public API of
// package graphql: the way to paginate a list in a gqlkit schema; and
// Relay's global object identification: the Node interface, global IDs and
// the node and nodes root fields (see Nodes below).
//
// For an object type X, [New] makes the types XConnection, XEdge and
// PageInfo of the Relay Cursor Connections specification, and
// [Connection.Field] a field that returns XConnection:
//
//	postsConnection(first: Int, after: String, last: Int, before: String): PostConnection!
//
//	type PostConnection { edges: [PostEdge!]! pageInfo: PageInfo! totalCount: Int! }
//	type PostEdge { cursor: String! node: Post! }
//	type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
//
// (totalCount only when [Config].Count is set.)
//
// # Keyset pages
//
// A connection reads its pages by keyset, never by offset: each node has
// a key K, the values the list is ordered by that make a node unique (a
// creation time and an id, say), given by the key function of [New]. The
// load function receives a [Request] with the keys of the after and
// before cursors, decoded, and a Limit, one more than the page: it reads
// the rows past After (and before Before) in the list's order, or, when
// Backward is set, the rows before Before (and past After) in the reverse
// order, nearest first, at most Limit of them, with a WHERE on the key and
// an ORDER BY … LIMIT that an index serves. The connection trims the extra
// row, which tells that there is another page, puts a backward page back
// in the list's order, and makes the edges and their cursors.
//
// # Arguments
//
// first and last are the page size, at most [Config].MaxPageSize (a
// larger one is clamped to it); with neither, the page holds
// [Config].DefaultPageSize nodes. A null first or last is the same as an
// absent one, as Relay clients send them. These are refused, with a
// BAD_USER_INPUT error at the field's path and nothing loaded:
//
//	Argument "first" must not be negative.
//	Arguments "first" and "last" must not be given together.
//	Argument "after" is not a cursor of this connection.
//
// (and the same for last and before). A cursor is opaque: base64url of a
// version, the JSON of the key and a tag that binds it to the field it
// came from (Query.postsConnection, say) and to the fields of the key
// type. A cursor from another field or connection, made while the key had
// other fields, or changed by a single character is refused; with
// [Config].Secret, cursors cannot be forged either.
//
// # pageInfo
//
// As the specification says: paging forward (first, or neither),
// hasNextPage tells whether more nodes follow the page; paging backward
// (last), hasPreviousPage whether more precede it. The other one is false:
// the specification allows it when it cannot be known cheaply, and a
// client pages one way at a time. startCursor and endCursor are the
// cursors of the first and last edges, null when the page is empty.
//
// # totalCount and selections
//
// totalCount calls [Config].Count only when the client selected it
// ([graphql.ResolveInfo.IsSelected]); the page is loaded only when edges
// or pageInfo is selected, so { postsConnection { totalCount } } costs one
// count and no page.
//
// # Cost
//
// The field declares [graphql.Cost] with SizeArg "first", MaxSize
// MaxPageSize and NullSizeAsAbsent: postsConnection(first: 2) counts its
// selection twice, first: 2147483647 counts it MaxPageSize times (the most
// the field returns), and a page asked with last, or with neither,
// counts as MaxPageSize: an upper bound known before anything runs.
//
// # Nodes
//
// A [Nodes] is the interface Node { id: ID! } of a schema with a fetch
// function per object that implements it, and makes the root fields
//
//	node(id: ID!): Node
//	nodes(ids: [ID!]!): [Node]!
//
// with which a Relay client fetches any object again by its global ID.
// There is no package state: each schema makes its own Nodes. An object
// lists [Nodes.Interface] in its Interfaces, gets its id field from
// [IDField] and is given its fetcher with [Register] (or, to fetch the
// nodes of one type with one statement, [RegisterBatch]):
//
//	nodes, _ := relay.NewNodes(relay.NodesConfig{})
//	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{nodes.Interface()},
//		Fields: graphql.Fields{relay.IDField("Book", func(b *Book) string { return b.ID }), …}}
//	err := relay.Register(nodes, book, store.Book) // func(ctx, id string) (*Book, error)
//	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{nodes.NodeField(), nodes.NodesField(), …}}
//
// A global ID is opaque to clients: the unpadded base64url form of
// "Type:id" ([GlobalID]), read back strictly by [ParseGlobalID]. node
// and nodes refuse an ID that does not parse, or whose type has no
// fetcher, with a BAD_USER_INPUT error at the field's path ("Argument
// "id" is not a node ID."), before anything is fetched; an object that
// its fetcher does not find is null. nodes takes at most
// [NodesConfig].MaxIDs IDs, and its cost counts its selection that many
// times.
//
// The Go type that a fetcher returns tells the object of each Node value,
// from node or any other field ([Nodes] sets the interface's
// ResolveType); for objects whose values share a Go type, set
// [NodesConfig].ResolveType. [Nodes.Check] finds the objects of a built
// schema that implement Node without a fetcher.
//
// A connection's node object may implement Node like any other: the ids
// of its edges' nodes fetch them again through node and nodes. A
// connection's node type may also be an interface or a union ([New]): a
// page of Node, or of search results; [Nodes.ResolveType] names the
// objects of a union whose members are all registered.
package relay
