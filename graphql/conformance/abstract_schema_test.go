package conformance_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql"
)

// This file defines the abstract conformance schema (interfaces and
// unions) with gqlkit. node/abstract-schema.mjs defines the same schema
// with graphql-js, in the same order, and says where each part comes from.
// Corpus cases run on it when they say "schema": "abstract".
//
// The values are Go structs and maps; each abstract type is resolved the
// way its graphql-js twin is: by IsTypeOf (Dog, Cat, Person, TypeA, TypeB,
// Thrower), by ResolveType (Pet, Shape), by a map's "__typename" (Figure,
// Mark, SomeBox) or, for Machine, by the Go types that the typed
// resolvers of Query.robot and Query.drone teach NewSchema (graphql-js
// uses isTypeOf there). Person.bestFriend, of the interface Named, has a
// batch resolver (in graphql-js a plain one).

// ---------------------------------------------------------------- data

type dog struct {
	Name    string
	Barks   bool
	Mother  *dog
	Father  *dog
	Progeny []*dog
}

type cat struct {
	Name    string
	Meows   bool
	Mother  *cat
	Father  *cat
	Progeny []*cat
}

type person struct {
	Name    string
	Pets    []any
	Friends []any
	Mother  *person
	Father  *person
	Progeny []*person
}

// stray is a value of no object of the schema.
type stray struct{ Name string }

type thrower struct{ Name string }

type quiet struct {
	Name  string
	Quiet bool
}

// machine is the Go side of the Machine interface.
type machine interface{ isMachine() }

type robot struct {
	ID    string
	Model string
	Arms  int
}

type drone struct {
	ID     string
	Model  string
	Rotors int
}

// strayMachine is a machine of no object type: no typed resolver returns it.
type strayMachine struct {
	ID    string
	Model string
}

func (*robot) isMachine()        {}
func (*drone) isMachine()        {}
func (*strayMachine) isMachine() {}

// zoo is the data of union-interface-test: John owns Garfield and Odie,
// and is friends with Liz and Odie.
type zoo struct {
	john, liz *person
	garfield  *cat
	odie      *dog
	everyone  []any
}

// Everyone's progeny is an empty list unless said otherwise, as in
// graphql-js's classes; a Person's pets and friends are null.
func newZoo() *zoo {
	garfield := &cat{Name: "Garfield", Progeny: []*cat{}}
	garfield.Mother = &cat{Name: "Garfield's Mom", Progeny: []*cat{garfield}}
	odie := &dog{Name: "Odie", Barks: true, Progeny: []*dog{}}
	odie.Mother = &dog{Name: "Odie's Mom", Barks: true, Progeny: []*dog{odie}}
	liz := &person{Name: "Liz"}
	john := &person{Name: "John", Pets: []any{garfield, odie}, Friends: []any{liz, odie}, Mother: liz, Progeny: []*person{}}
	liz.Progeny = []*person{john}
	return &zoo{
		john: john, liz: liz, garfield: garfield, odie: odie,
		everyone: []any{john, liz, odie, odie.Mother, garfield, garfield.Mother},
	}
}

// bestFriend is John's dog and Liz's cat; nobody else has one.
func (z *zoo) bestFriend(p *person) any {
	switch p {
	case z.john:
		return z.odie
	case z.liz:
		return z.garfield
	}
	return nil
}

func nameOf(v any) string {
	switch x := v.(type) {
	case *person:
		return x.Name
	case *dog:
		return x.Name
	case *cat:
		return x.Name
	}
	return ""
}

func shapeValue(kind string) map[string]any {
	return map[string]any{"kind": kind, "name": "a " + kind, "radius": 1.5, "side": 2}
}

func figureValue(typename *string, name string) map[string]any {
	v := map[string]any{"name": name, "radius": 0.5, "side": 3}
	if typename != nil {
		v["__typename"] = *typename
	}
	return v
}

// boxes returns the StringBox that Query.someBox returns; the boxes lead
// to each other.
func boxes() map[string]any {
	intBox := map[string]any{"__typename": "IntBox", "scalar": 7, "unrelatedField": "deep int"}
	stringBox := map[string]any{"__typename": "StringBox", "scalar": "box", "unrelatedField": "unrelated", "intBox": intBox}
	stringBox["deepBox"] = stringBox
	stringBox["stringBox"] = stringBox
	stringBox["listStringBox"] = []any{stringBox}
	intBox["listStringBox"] = []any{stringBox}
	intBox["stringBox"] = stringBox
	intBox["intBox"] = intBox
	intBox["deepBox"] = intBox
	return stringBox
}

func isA[T any](v any) bool { _, ok := v.(T); return ok }

func mapID(v any) any {
	m, _ := v.(map[string]any)
	return m["id"]
}

// snippet mirrors snippet in node/abstract-schema.mjs.
func snippet(withTail bool) graphql.ResolveFunc {
	return func(_ context.Context, parent any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		s := fmt.Sprintf("%v:%d", mapID(parent), argInt(args, "length"))
		if tail, ok := args.Value("ellipsis").(string); ok && withTail {
			s += tail
		}
		return s, nil
	}
}

// ---------------------------------------------------------------- schema

func newAbstractSchema() (*graphql.Schema, error) {
	z := newZoo()

	named := &graphql.Interface{
		Name:        "Named",
		Description: "Anything with a name.",
		Fields:      graphql.Fields{{Name: "name", Type: graphql.String}},
	}
	var life, mammal *graphql.Interface
	life = &graphql.Interface{
		Name: "Life",
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{{Name: "progeny", Type: list(life)}}
		}),
	}
	mammal = &graphql.Interface{
		Name:       "Mammal",
		Interfaces: []*graphql.Interface{life},
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "progeny", Type: list(mammal)},
				{Name: "mother", Type: mammal},
				{Name: "father", Type: mammal, DeprecationReason: "Fathers are unknown."},
			}
		}),
	}
	// animal returns Dog or Cat: a name, the field of its sound, and its
	// family, of its own type.
	animal := func(name, sound string, isTypeOf func(any) bool) *graphql.Object {
		var o *graphql.Object
		o = &graphql.Object{
			Name:       name,
			Interfaces: []*graphql.Interface{mammal, life, named},
			Fields: graphql.FieldsFunc(func() graphql.Fields {
				return graphql.Fields{
					{Name: "name", Type: graphql.String},
					{Name: sound, Type: graphql.Boolean},
					{Name: "progeny", Type: list(o)},
					{Name: "mother", Type: o},
					{Name: "father", Type: o, DeprecationReason: "Fathers are unknown."},
				}
			}),
			IsTypeOf: isTypeOf,
		}
		return o
	}
	dogT, catT := animal("Dog", "barks", isA[*dog]), animal("Cat", "meows", isA[*cat])
	var personT *graphql.Object
	pet := &graphql.Union{
		Name:        "Pet",
		Description: "A pet is a dog or a cat.",
		Types:       []*graphql.Object{dogT, catT},
		ResolveType: func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *dog:
				return "Dog", nil
			case *cat:
				return "Cat", nil
			}
			return "", nil
		},
	}
	personT = &graphql.Object{
		Name:       "Person",
		Interfaces: []*graphql.Interface{named, mammal, life},
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "name", Type: graphql.String},
				{Name: "pets", Type: list(pet)},
				{Name: "friends", Type: list(named)},
				{Name: "progeny", Type: list(personT)},
				{Name: "mother", Type: personT},
				{Name: "father", Type: personT, DeprecationReason: "Fathers are unknown."},
				{Name: "bestFriend", Type: named, Description: "A batched field of an interface type.",
					Batch: graphql.Batch(func(_ context.Context, parents []*person, _ graphql.NoArgs) ([]any, error) {
						out := make([]any, len(parents))
						for i, p := range parents {
							out[i] = z.bestFriend(p)
						}
						return out, nil
					})},
			}
		}),
		IsTypeOf: isA[*person],
	}
	dogOrPerson := &graphql.Union{Name: "DogOrPerson", Types: []*graphql.Object{dogT, personT}}

	lengthArg := graphql.Argument{Name: "length", Type: graphql.Int, Default: 10, Description: "At most this many characters."}
	searchable := &graphql.Interface{
		Name: "Searchable",
		Fields: graphql.Fields{
			{Name: "id", Type: graphql.String},
			{Name: "snippet", Type: graphql.String, Args: []graphql.Argument{lengthArg}},
		},
	}
	typeA := &graphql.Object{
		Name:       "TypeA",
		Interfaces: []*graphql.Interface{searchable},
		Fields: graphql.Fields{
			{Name: "id", Type: graphql.String},
			{Name: "nameA", Type: graphql.String},
			{Name: "snippet", Type: graphql.String, Args: []graphql.Argument{lengthArg}, Resolve: snippet(false)},
		},
		IsTypeOf: func(v any) bool { return mapID(v) == "a" },
	}
	typeB := &graphql.Object{
		Name:       "TypeB",
		Interfaces: []*graphql.Interface{searchable},
		Fields: graphql.Fields{
			{Name: "id", Type: graphql.String},
			{Name: "nameB", Type: graphql.String},
			{Name: "snippet", Type: graphql.String,
				Args: []graphql.Argument{lengthArg, {Name: "ellipsis", Type: graphql.String}}, Resolve: snippet(true)},
		},
		IsTypeOf: func(v any) bool { return mapID(v) == "b" },
	}

	faulty := &graphql.Interface{Name: "Faulty", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	throwerT := &graphql.Object{
		Name:       "Thrower",
		Interfaces: []*graphql.Interface{faulty},
		Fields:     graphql.Fields{{Name: "name", Type: graphql.String}},
		// graphql-js's isTypeOf throws; gqlkit's IsTypeOf cannot return an
		// error, and a panic is its way to fail.
		IsTypeOf: func(any) bool { panic("isTypeOf failed") },
	}
	quietT := &graphql.Object{
		Name:       "Quiet",
		Interfaces: []*graphql.Interface{faulty},
		Fields:     graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "quiet", Type: graphql.Boolean}},
	}

	shape := &graphql.Interface{
		Name:        "Shape",
		Description: `Resolved by the name in the value's "kind".`,
		Fields:      graphql.Fields{{Name: "name", Type: graphql.String}},
		ResolveType: func(_ context.Context, v any) (string, error) {
			kind, _ := v.(map[string]any)["kind"].(string)
			if kind == "throw" {
				return "", errors.New("resolveType failed")
			}
			return kind, nil
		},
	}
	figure := &graphql.Interface{Name: "Figure", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	circle := &graphql.Object{
		Name:       "Circle",
		Interfaces: []*graphql.Interface{shape, figure},
		Fields:     graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "radius", Type: graphql.Float}},
	}
	square := &graphql.Object{
		Name:       "Square",
		Interfaces: []*graphql.Interface{shape, figure},
		Fields:     graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "side", Type: graphql.Float}},
	}
	mark := &graphql.Union{Name: "Mark", Types: []*graphql.Object{circle, square}}

	var someBox *graphql.Interface
	someBox = &graphql.Interface{
		Name: "SomeBox",
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "deepBox", Type: someBox},
				{Name: "unrelatedField", Type: graphql.String},
			}
		}),
	}
	var stringBox, intBox *graphql.Object
	boxFields := func(scalar graphql.Type, self *graphql.Object) graphql.Fields {
		return graphql.Fields{
			{Name: "scalar", Type: scalar},
			{Name: "deepBox", Type: self},
			{Name: "unrelatedField", Type: graphql.String},
			{Name: "listStringBox", Type: list(stringBox)},
			{Name: "stringBox", Type: stringBox},
			{Name: "intBox", Type: intBox},
		}
	}
	stringBox = &graphql.Object{
		Name:       "StringBox",
		Interfaces: []*graphql.Interface{someBox},
		Fields:     graphql.FieldsFunc(func() graphql.Fields { return boxFields(graphql.String, stringBox) }),
	}
	intBox = &graphql.Object{
		Name:       "IntBox",
		Interfaces: []*graphql.Interface{someBox},
		Fields:     graphql.FieldsFunc(func() graphql.Fields { return boxFields(graphql.Int, intBox) }),
	}
	nonNullBox := func(n int) (*graphql.Interface, *graphql.Object) {
		iface := &graphql.Interface{
			Name:   fmt.Sprintf("NonNullStringBox%d", n),
			Fields: graphql.Fields{{Name: "scalar", Type: nonNull(graphql.String)}},
		}
		return iface, &graphql.Object{
			Name:       fmt.Sprintf("NonNullStringBox%dImpl", n),
			Interfaces: []*graphql.Interface{someBox, iface},
			Fields: graphql.Fields{
				{Name: "scalar", Type: nonNull(graphql.String)},
				{Name: "unrelatedField", Type: graphql.String},
				{Name: "deepBox", Type: someBox},
			},
		}
	}
	_, nonNullBox1Impl := nonNullBox(1)
	_, nonNullBox2Impl := nonNullBox(2)

	machineT := &graphql.Interface{
		Name: "Machine",
		Fields: graphql.Fields{
			{Name: "id", Type: nonNull(graphql.ID)},
			{Name: "model", Type: graphql.String},
		},
	}
	robotT := &graphql.Object{
		Name:       "Robot",
		Interfaces: []*graphql.Interface{machineT},
		Fields: graphql.Fields{
			{Name: "id", Type: nonNull(graphql.ID)},
			{Name: "model", Type: graphql.String},
			{Name: "arms", Type: graphql.Int},
		},
	}
	droneT := &graphql.Object{
		Name:       "Drone",
		Interfaces: []*graphql.Interface{machineT},
		Fields: graphql.Fields{
			{Name: "id", Type: nonNull(graphql.ID)},
			{Name: "model", Type: graphql.String},
			{Name: "rotors", Type: graphql.Int},
		},
	}
	theRobot := &robot{ID: "r1", Model: "R-2", Arms: 2}
	theDrone := &drone{ID: "d1", Model: "Quad", Rotors: 4}

	query := &graphql.Object{
		Name: "Query",
		Fields: graphql.Fields{
			{Name: "person", Type: personT, Resolve: constant(z.john)},
			{Name: "pets", Type: list(pet), Resolve: constant(z.john.Pets)},
			{Name: "named", Type: named, Args: []graphql.Argument{{Name: "name", Type: nonNull(graphql.String)}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					for _, n := range z.everyone {
						if nameOf(n) == argString(args, "name") {
							return n, nil
						}
					}
					return nil, nil
				}},
			{Name: "stray", Type: named, Description: "A value of no object type.", Resolve: constant(&stray{Name: "Stray"})},
			{Name: "friends", Type: list(nonNull(named)), Resolve: constant([]any{z.liz, &stray{Name: "Stray"}, z.odie})},
			{Name: "dogOrPerson", Type: list(dogOrPerson), Resolve: constant([]any{z.odie, z.liz})},
			{Name: "search", Type: searchable, Args: []graphql.Argument{{Name: "id", Type: graphql.String}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					switch id, _ := args.Value("id").(string); id {
					case "a":
						return map[string]any{"id": "a", "nameA": "Object A"}, nil
					case "b":
						return map[string]any{"id": "b", "nameB": "Object B"}, nil
					}
					return nil, nil
				}},
			{Name: "faulty", Type: list(faulty), Resolve: constant([]any{&thrower{Name: "T"}, &quiet{Name: "Q", Quiet: true}})},
			{Name: "shape", Type: shape, Args: []graphql.Argument{{Name: "kind", Type: nonNull(graphql.String)}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return shapeValue(argString(args, "kind")), nil
				}},
			{Name: "shapes", Type: list(shape),
				Resolve: constant([]any{shapeValue("Circle"), shapeValue("Nowhere"), shapeValue("Square")})},
			{Name: "strictShapes", Type: list(nonNull(shape)), Resolve: constant([]any{shapeValue("Square"), shapeValue("Dog")})},
			{Name: "figure", Type: figure, Args: []graphql.Argument{{Name: "typename", Type: graphql.String}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					var typename *string
					if s, ok := args.Value("typename").(string); ok {
						typename = &s
					}
					return figureValue(typename, "f"), nil
				}},
			{Name: "figures", Type: nonNull(list(figure)),
				Resolve: constant([]any{figureValue(ptr("Circle"), "c"), figureValue(ptr("Square"), "s")})},
			{Name: "marks", Type: list(nonNull(mark)),
				Resolve: constant([]any{figureValue(ptr("Square"), "s"), figureValue(ptr("Circle"), "c")})},
			{Name: "someBox", Type: someBox, Resolve: constant(boxes())},
			{Name: "machines", Type: nonNull(list(nonNull(machineT))),
				Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]machine, error) {
					return []machine{theRobot, theDrone}, nil
				})},
			{Name: "strayMachines", Type: list(machineT), Description: "The second is of no object type.",
				Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]machine, error) {
					return []machine{theRobot, &strayMachine{ID: "s1", Model: "Stray"}}, nil
				})},
			{Name: "robot", Type: robotT,
				Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*robot, error) { return theRobot, nil })},
			{Name: "drone", Type: droneT,
				Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*drone, error) { return theDrone, nil })},
		},
	}

	return graphql.NewSchema(graphql.SchemaConfig{
		Description: "The gqlkit conformance schema of interfaces and unions.",
		Query:       query,
		// The objects that no field returns: they are possible types of an
		// interface only if the schema lists them.
		Types: []graphql.NamedType{nonNullBox1Impl, nonNullBox2Impl, typeA, typeB, throwerT, quietT, stringBox, intBox},
	})
}
