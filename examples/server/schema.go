package main

import (
	"fmt"
	"io"
	"net/http"

	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// schemaPath is where the server serves its schema in the SDL, where
// introspection is on: a file a client's tools can fetch as it is.
const schemaPath = "/api/schema.graphql"

// parseSchema reads "schema": print the GraphQL schema in the Schema
// Definition Language, the text GET /api/schema.graphql serves and
// schema.graphql holds. It needs no settings and no database.
func parseSchema(args []string, stdout io.Writer) (command, error) {
	if err := parseFlags(newFlags("schema"), args); err != nil {
		return command{}, err
	}
	return command{name: "schema", offline: func() error {
		// The resolvers are not called: no store is needed.
		schema, err := postsSchema(nil)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, schema.SDL())
		return err
	}}, nil
}

// mountSchema serves the SDL at schemaPath where introspection is on; where
// it is off, nothing is mounted, and the path is as unknown as any other.
func mountSchema(mux *http.ServeMux, gql *graphqlhttp.Handler, s settings) {
	if s.graphql.Introspection {
		mux.Handle(schemaPath, gql.SDL())
	}
}
