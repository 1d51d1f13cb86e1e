package sqlstore

import (
	"fmt"
	"slices"
)

// migrationOrder lists the migrations of both stores in the order they
// run: each domain's, and auth_users, the link between auth and users,
// after both.
var migrationOrder = []string{"users", "auth", "auth_users", "idempotency", "articles"}

// Domains are the names of the domains a store migrates, as its Schema
// constants spell them.
var Domains = []string{"users", "auth", "idempotency", "articles"}

// Migrations returns the names of the migrations that create domains (all
// of them when there are none), in the order they run: auth_users joins
// when both users and auth are there.
func Migrations[S ~string](schemas []S) ([]string, error) {
	domains := Domains
	if len(schemas) > 0 {
		domains = make([]string, len(schemas))
		for i, s := range schemas {
			if domains[i] = string(s); !slices.Contains(Domains, domains[i]) {
				return nil, fmt.Errorf("no schema %q (the schemas are %v)", s, Domains)
			}
		}
	}
	var names []string
	for _, name := range migrationOrder {
		want := slices.Contains(domains, name)
		if name == "auth_users" {
			want = slices.Contains(domains, "users") && slices.Contains(domains, "auth")
		}
		if want {
			names = append(names, name)
		}
	}
	return names, nil
}
