package relay_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// ExampleNodes serves Relay's node(id:) and nodes(ids:) over two Node
// objects, each fetched by its own function from an in-memory store.
func ExampleNodes() {
	type Planet struct {
		ID   int
		Name string
	}
	type Ship struct {
		Code string
		Name string
	}
	planets := map[string]*Planet{"1": {1, "Arrakis"}, "2": {2, "Caladan"}}
	ships := map[string]*Ship{"x9": {"x9", "Heighliner"}}

	nodes, err := relay.NewNodes(relay.NodesConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	node := []*graphql.Interface{nodes.Interface()}
	planet := &graphql.Object{Name: "Planet", Interfaces: node, Fields: graphql.Fields{
		relay.IDField("Planet", func(p *Planet) string { return fmt.Sprint(p.ID) }),
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	ship := &graphql.Object{Name: "Ship", Interfaces: node, Fields: graphql.Fields{
		relay.IDField("Ship", func(s *Ship) string { return s.Code }),
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	// A nil *Planet or *Ship is a null node.
	err = relay.Register(nodes, planet, func(_ context.Context, id string) (*Planet, error) { return planets[id], nil })
	if err == nil {
		err = relay.Register(nodes, ship, func(_ context.Context, code string) (*Ship, error) { return ships[code], nil })
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{nodes.NodeField(), nodes.NodesField()}},
		Types: []graphql.NamedType{planet, ship}, // reached only through Node
	})
	if err == nil {
		err = nodes.Check(schema)
	}
	if err != nil {
		fmt.Println(err)
		return
	}

	fmt.Println(relay.GlobalID("Planet", "2"))
	for _, query := range []string{
		`{ node(id: "UGxhbmV0OjI") { id ... on Planet { name } } }`,
		`{ nodes(ids: ["U2hpcDp4OQ", "UGxhbmV0Ojk"]) { __typename ... on Ship { name } } }`,
		`{ node(id: "Planet:2") { id } }`,
	} {
		res, err := json.Marshal(schema.Do(context.Background(), graphql.Request{Query: query}))
		fmt.Println(string(res), err)
	}
	// Output:
	// UGxhbmV0OjI
	// {"data":{"node":{"id":"UGxhbmV0OjI","name":"Caladan"}}} <nil>
	// {"data":{"nodes":[{"__typename":"Ship","name":"Heighliner"},null]}} <nil>
	// {"data":{"node":null},"errors":[{"message":"Argument \"id\" is not a node ID.","locations":[{"line":1,"column":3}],"path":["node"],"extensions":{"code":"BAD_USER_INPUT"}}]} <nil>
}
