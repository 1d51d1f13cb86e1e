// The abstract conformance schema: interfaces and unions, defined code-first
// with graphql-js. abstract_schema_test.go in the parent folder defines the
// same schema with gqlkit: same types, fields, arguments, descriptions and
// deprecations, declared in the same order (the order decides the type
// collection, so __schema.types and printSchema). Keep the two in step.
//
// Its parts follow graphql-js's own tests of abstract types:
//   - Named, Life, Mammal, Dog, Cat, Person and the union Pet are the schema
//     of union-interface-test (an interface implementing an interface,
//     isTypeOf on the objects, resolveType by name on the union);
//   - Searchable, TypeA and TypeB resolve by isTypeOf on a plain value;
//   - Faulty (an isTypeOf that throws), Shape (a resolveType that returns
//     whatever name the value carries, or throws), Figure and Mark (the
//     value's __typename) follow abstract-test's failure cases;
//   - SomeBox and its objects are the schema of OverlappingFieldsCanBeMerged's
//     "return types must be unambiguous" cases;
//   - Machine, Robot and Drone are resolved, on gqlkit's side, by the Go type
//     that typed resolvers taught NewSchema (here by isTypeOf);
//   - Person.bestFriend is, on gqlkit's side, a batch resolver.
// The data is static; no resolver changes anything.

import graphql from './graphql.mjs';

const {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
} = graphql;

const list = (t) => new GraphQLList(t);
const nonNull = (t) => new GraphQLNonNull(t);

// ---------------------------------------------------------------- data

class Dog {
  constructor(name, barks) {
    this.name = name;
    this.barks = barks;
    this.mother = null;
    this.father = null;
    this.progeny = [];
  }
}

class Cat {
  constructor(name, meows) {
    this.name = name;
    this.meows = meows;
    this.mother = null;
    this.father = null;
    this.progeny = [];
  }
}

class Person {
  constructor(name, pets, friends) {
    this.name = name;
    this.pets = pets ?? null;
    this.friends = friends ?? null;
    this.mother = null;
    this.father = null;
    this.progeny = [];
  }
}

/** A value of no object of the schema. */
class Stray {
  constructor(name) {
    this.name = name;
  }
}

class Thrower {
  constructor(name) {
    this.name = name;
  }
}

class Quiet {
  constructor(name) {
    this.name = name;
    this.quiet = true;
  }
}

class Robot {
  constructor(id, model, arms) {
    this.id = id;
    this.model = model;
    this.arms = arms;
  }
}

class Drone {
  constructor(id, model, rotors) {
    this.id = id;
    this.model = model;
    this.rotors = rotors;
  }
}

const garfield = new Cat('Garfield', false);
garfield.mother = new Cat("Garfield's Mom", false);
garfield.mother.progeny = [garfield];

const odie = new Dog('Odie', true);
odie.mother = new Dog("Odie's Mom", true);
odie.mother.progeny = [odie];

const liz = new Person('Liz');
const john = new Person('John', [garfield, odie], [liz, odie]);
john.mother = liz;
liz.progeny = [john];

const everyone = [john, liz, odie, odie.mother, garfield, garfield.mother];

/** A machine of no object type. */
class StrayMachine {
  constructor(id, model) {
    this.id = id;
    this.model = model;
  }
}

const robot = new Robot('r1', 'R-2', 2);
const drone = new Drone('d1', 'Quad', 4);

function shapeValue(kind) {
  return { kind, name: `a ${kind}`, radius: 1.5, side: 2 };
}

function figureValue(typename, name) {
  const v = { name, radius: 0.5, side: 3 };
  if (typename != null) {
    v.__typename = typename;
  }
  return v;
}

const intBox = { __typename: 'IntBox', scalar: 7, unrelatedField: 'deep int', deepBox: null };
const stringBox = {
  __typename: 'StringBox',
  scalar: 'box',
  unrelatedField: 'unrelated',
  deepBox: null,
  listStringBox: [],
  stringBox: null,
  intBox,
};
stringBox.deepBox = stringBox;
stringBox.stringBox = stringBox;
stringBox.listStringBox = [stringBox];
intBox.listStringBox = [stringBox];
intBox.stringBox = stringBox;
intBox.intBox = intBox;
intBox.deepBox = intBox;

// ---------------------------------------------------------------- Named, Life, Mammal

const Named = new GraphQLInterfaceType({
  name: 'Named',
  description: 'Anything with a name.',
  fields: {
    name: { type: GraphQLString },
  },
});

const Life = new GraphQLInterfaceType({
  name: 'Life',
  fields: () => ({
    progeny: { type: list(Life) },
  }),
});

const Mammal = new GraphQLInterfaceType({
  name: 'Mammal',
  interfaces: [Life],
  fields: () => ({
    progeny: { type: list(Mammal) },
    mother: { type: Mammal },
    father: { type: Mammal, deprecationReason: 'Fathers are unknown.' },
  }),
});

const DogType = new GraphQLObjectType({
  name: 'Dog',
  interfaces: [Mammal, Life, Named],
  fields: () => ({
    name: { type: GraphQLString },
    barks: { type: GraphQLBoolean },
    progeny: { type: list(DogType) },
    mother: { type: DogType },
    father: { type: DogType, deprecationReason: 'Fathers are unknown.' },
  }),
  isTypeOf: (v) => v instanceof Dog,
});

const CatType = new GraphQLObjectType({
  name: 'Cat',
  interfaces: [Mammal, Life, Named],
  fields: () => ({
    name: { type: GraphQLString },
    meows: { type: GraphQLBoolean },
    progeny: { type: list(CatType) },
    mother: { type: CatType },
    father: { type: CatType, deprecationReason: 'Fathers are unknown.' },
  }),
  isTypeOf: (v) => v instanceof Cat,
});

const Pet = new GraphQLUnionType({
  name: 'Pet',
  description: 'A pet is a dog or a cat.',
  types: [DogType, CatType],
  resolveType(v) {
    if (v instanceof Dog) return 'Dog';
    if (v instanceof Cat) return 'Cat';
    return undefined;
  },
});

const PersonType = new GraphQLObjectType({
  name: 'Person',
  interfaces: [Named, Mammal, Life],
  fields: () => ({
    name: { type: GraphQLString },
    pets: { type: list(Pet) },
    friends: { type: list(Named) },
    progeny: { type: list(PersonType) },
    mother: { type: PersonType },
    father: { type: PersonType, deprecationReason: 'Fathers are unknown.' },
    bestFriend: {
      type: Named,
      description: 'A batched field of an interface type.',
      resolve: (p) => (p === john ? odie : p === liz ? garfield : null),
    },
  }),
  isTypeOf: (v) => v instanceof Person,
});

const DogOrPerson = new GraphQLUnionType({
  name: 'DogOrPerson',
  types: [DogType, PersonType],
});

// ---------------------------------------------------------------- Searchable

const Searchable = new GraphQLInterfaceType({
  name: 'Searchable',
  fields: {
    id: { type: GraphQLString },
    snippet: {
      type: GraphQLString,
      args: { length: { type: GraphQLInt, defaultValue: 10, description: 'At most this many characters.' } },
    },
  },
});

const snippet = (v, length, tail) => `${v.id}:${length}${tail ?? ''}`;

const TypeA = new GraphQLObjectType({
  name: 'TypeA',
  interfaces: [Searchable],
  fields: {
    id: { type: GraphQLString },
    nameA: { type: GraphQLString },
    snippet: {
      type: GraphQLString,
      args: { length: { type: GraphQLInt, defaultValue: 10, description: 'At most this many characters.' } },
      resolve: (v, a) => snippet(v, a.length),
    },
  },
  isTypeOf: (v) => v.id === 'a',
});

const TypeB = new GraphQLObjectType({
  name: 'TypeB',
  interfaces: [Searchable],
  fields: {
    id: { type: GraphQLString },
    nameB: { type: GraphQLString },
    snippet: {
      type: GraphQLString,
      args: {
        length: { type: GraphQLInt, defaultValue: 10, description: 'At most this many characters.' },
        ellipsis: { type: GraphQLString },
      },
      resolve: (v, a) => snippet(v, a.length, a.ellipsis),
    },
  },
  isTypeOf: (v) => v.id === 'b',
});

// ---------------------------------------------------------------- Faulty

const Faulty = new GraphQLInterfaceType({
  name: 'Faulty',
  fields: { name: { type: GraphQLString } },
});

const ThrowerType = new GraphQLObjectType({
  name: 'Thrower',
  interfaces: [Faulty],
  fields: { name: { type: GraphQLString } },
  isTypeOf() {
    throw new Error('isTypeOf failed');
  },
});

const QuietType = new GraphQLObjectType({
  name: 'Quiet',
  interfaces: [Faulty],
  fields: { name: { type: GraphQLString }, quiet: { type: GraphQLBoolean } },
});

// ---------------------------------------------------------------- Shape, Figure, Mark

const Shape = new GraphQLInterfaceType({
  name: 'Shape',
  description: 'Resolved by the name in the value\'s "kind".',
  fields: { name: { type: GraphQLString } },
  resolveType(v) {
    if (v.kind === 'throw') {
      throw new Error('resolveType failed');
    }
    return v.kind;
  },
});

const Figure = new GraphQLInterfaceType({
  name: 'Figure',
  fields: { name: { type: GraphQLString } },
});

const Circle = new GraphQLObjectType({
  name: 'Circle',
  interfaces: [Shape, Figure],
  fields: { name: { type: GraphQLString }, radius: { type: GraphQLFloat } },
});

const Square = new GraphQLObjectType({
  name: 'Square',
  interfaces: [Shape, Figure],
  fields: { name: { type: GraphQLString }, side: { type: GraphQLFloat } },
});

const Mark = new GraphQLUnionType({
  name: 'Mark',
  types: [Circle, Square],
});

// ---------------------------------------------------------------- SomeBox

const SomeBox = new GraphQLInterfaceType({
  name: 'SomeBox',
  fields: () => ({
    deepBox: { type: SomeBox },
    unrelatedField: { type: GraphQLString },
  }),
});

const StringBox = new GraphQLObjectType({
  name: 'StringBox',
  interfaces: [SomeBox],
  fields: () => ({
    scalar: { type: GraphQLString },
    deepBox: { type: StringBox },
    unrelatedField: { type: GraphQLString },
    listStringBox: { type: list(StringBox) },
    stringBox: { type: StringBox },
    intBox: { type: IntBox },
  }),
});

const IntBox = new GraphQLObjectType({
  name: 'IntBox',
  interfaces: [SomeBox],
  fields: () => ({
    scalar: { type: GraphQLInt },
    deepBox: { type: IntBox },
    unrelatedField: { type: GraphQLString },
    listStringBox: { type: list(StringBox) },
    stringBox: { type: StringBox },
    intBox: { type: IntBox },
  }),
});

const NonNullStringBox1 = new GraphQLInterfaceType({
  name: 'NonNullStringBox1',
  fields: { scalar: { type: nonNull(GraphQLString) } },
});

const NonNullStringBox1Impl = new GraphQLObjectType({
  name: 'NonNullStringBox1Impl',
  interfaces: [SomeBox, NonNullStringBox1],
  fields: {
    scalar: { type: nonNull(GraphQLString) },
    unrelatedField: { type: GraphQLString },
    deepBox: { type: SomeBox },
  },
});

const NonNullStringBox2 = new GraphQLInterfaceType({
  name: 'NonNullStringBox2',
  fields: { scalar: { type: nonNull(GraphQLString) } },
});

const NonNullStringBox2Impl = new GraphQLObjectType({
  name: 'NonNullStringBox2Impl',
  interfaces: [SomeBox, NonNullStringBox2],
  fields: {
    scalar: { type: nonNull(GraphQLString) },
    unrelatedField: { type: GraphQLString },
    deepBox: { type: SomeBox },
  },
});

// ---------------------------------------------------------------- Machine

const Machine = new GraphQLInterfaceType({
  name: 'Machine',
  fields: {
    id: { type: nonNull(GraphQLID) },
    model: { type: GraphQLString },
  },
});

const RobotType = new GraphQLObjectType({
  name: 'Robot',
  interfaces: [Machine],
  fields: {
    id: { type: nonNull(GraphQLID) },
    model: { type: GraphQLString },
    arms: { type: GraphQLInt },
  },
  isTypeOf: (v) => v instanceof Robot,
});

const DroneType = new GraphQLObjectType({
  name: 'Drone',
  interfaces: [Machine],
  fields: {
    id: { type: nonNull(GraphQLID) },
    model: { type: GraphQLString },
    rotors: { type: GraphQLInt },
  },
  isTypeOf: (v) => v instanceof Drone,
});

// ---------------------------------------------------------------- Query

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    person: { type: PersonType, resolve: () => john },
    pets: { type: list(Pet), resolve: () => john.pets },
    named: {
      type: Named,
      args: { name: { type: nonNull(GraphQLString) } },
      resolve: (_, { name }) => everyone.find((n) => n.name === name) ?? null,
    },
    stray: { type: Named, description: 'A value of no object type.', resolve: () => new Stray('Stray') },
    friends: {
      type: list(nonNull(Named)),
      resolve: () => [liz, new Stray('Stray'), odie],
    },
    dogOrPerson: { type: list(DogOrPerson), resolve: () => [odie, liz] },
    search: {
      type: Searchable,
      args: { id: { type: GraphQLString } },
      resolve: (_, { id }) => {
        if (id === 'a') return { id: 'a', nameA: 'Object A' };
        if (id === 'b') return { id: 'b', nameB: 'Object B' };
        return null;
      },
    },
    faulty: { type: list(Faulty), resolve: () => [new Thrower('T'), new Quiet('Q')] },
    shape: {
      type: Shape,
      args: { kind: { type: nonNull(GraphQLString) } },
      resolve: (_, { kind }) => shapeValue(kind),
    },
    shapes: {
      type: list(Shape),
      resolve: () => [shapeValue('Circle'), shapeValue('Nowhere'), shapeValue('Square')],
    },
    strictShapes: {
      type: list(nonNull(Shape)),
      resolve: () => [shapeValue('Square'), shapeValue('Dog')],
    },
    figure: {
      type: Figure,
      args: { typename: { type: GraphQLString } },
      resolve: (_, { typename }) => figureValue(typename, 'f'),
    },
    figures: {
      type: nonNull(list(Figure)),
      resolve: () => [figureValue('Circle', 'c'), figureValue('Square', 's')],
    },
    marks: {
      type: list(nonNull(Mark)),
      resolve: () => [figureValue('Square', 's'), figureValue('Circle', 'c')],
    },
    someBox: { type: SomeBox, resolve: () => stringBox },
    machines: { type: nonNull(list(nonNull(Machine))), resolve: () => [robot, drone] },
    strayMachines: {
      type: list(Machine),
      description: 'The second is of no object type.',
      resolve: () => [robot, new StrayMachine('s1', 'Stray')],
    },
    robot: { type: RobotType, resolve: () => robot },
    drone: { type: DroneType, resolve: () => drone },
  },
});

export const abstractSchema = new GraphQLSchema({
  description: 'The gqlkit conformance schema of interfaces and unions.',
  query: Query,
  // The objects that no field returns: they are possible types of an
  // interface only if the schema lists them.
  types: [NonNullStringBox1Impl, NonNullStringBox2Impl, TypeA, TypeB, ThrowerType, QuietType, StringBox, IntBox],
});
