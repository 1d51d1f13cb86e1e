package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql/sdltest"
	"github.com/gqlkit/gqlkit/internal/graphqljs"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// schemaFile is the committed SDL of the server's schema: every change of
// the schema shows in review as a change of this file.
const schemaFile = "schema.graphql"

// TestSchemaFile keeps schema.graphql in step with the schema; on a
// difference it prints the diff and the command that updates the file.
func TestSchemaFile(t *testing.T) {
	schema, err := postsSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	sdltest.Check(t, schema, schemaFile)
}

// TestSchemaExport: `server schema` prints the committed file without
// touching a database; GET /api/schema.graphql serves the same text where
// introspection is on and nothing where it is off; and graphql-js, given
// the server's answer to its own introspection query, prints the same SDL
// again (printSchema(buildClientSchema(result))).
func TestSchemaExport(t *testing.T) {
	testenv.SkipIfShort(t, "schema export: the server binary, and graphql-js under node")
	committed, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	db := sqliteDatabase(t)
	res := db.run(t, db.env(), "schema")
	if res.code != 0 || res.stdout != string(committed) || res.stderr != "" {
		t.Fatalf("server schema: exit %d, stderr %q, stdout\n%s\nwant exit 0 and %s", res.code, res.stderr, res.stdout, schemaFile)
	}
	if _, err := os.Stat(filepath.Join(db.dir, "app.db")); !os.IsNotExist(err) {
		t.Errorf("server schema touched the database: stat app.db: %v", err)
	}

	closed := db.start(t)
	send(t, http.MethodGet, closed.base+schemaPath, "").check(t, http.StatusNotFound, `{"message":"Not found."}`)

	db2 := sqliteDatabase(t)
	open := db2.start(t, "GRAPHQL_INTROSPECTION=true")
	send(t, http.MethodGet, open.base+schemaPath, "").check(t, http.StatusOK, string(committed),
		"Content-Type", "text/plain; charset=utf-8", "Cache-Control", "no-cache")

	js := graphqljs.Ready(t, filepath.Join("..", "..", "graphql", "conformance", "node"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	query, err := json.Marshal(map[string]string{"query": js.IntrospectionQuery(ctx, t)})
	if err != nil {
		t.Fatal(err)
	}
	answer := send(t, http.MethodPost, open.base+"/api/graphql", string(query), "Content-Type", "application/json")
	if answer.status != http.StatusOK {
		t.Fatalf("introspection: %d %s", answer.status, answer.body)
	}
	if got := js.ClientSDL(ctx, t, []byte(answer.body)) + "\n"; got != string(committed) {
		t.Errorf("printSchema(buildClientSchema(the server's introspection)) differs from %s:\n%s",
			schemaFile, sdltest.Diff(string(committed), got))
	}
}
