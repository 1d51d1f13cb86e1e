package sdltest_test

import (
	"fmt"

	"github.com/gqlkit/gqlkit/graphql/sdltest"
)

// Diff is what Check shows when a committed schema file is behind.
func ExampleDiff() {
	committed := "type Query {\n  posts: [Post!]!\n}\n"
	now := "type Query {\n  posts(first: Int): [Post!]!\n}\n"
	fmt.Println(sdltest.Diff(committed, now))
	// Output:
	// @@ -1 +1 @@
	//  type Query {
	// -  posts: [Post!]!
	// +  posts(first: Int): [Post!]!
	//  }
	//
}
