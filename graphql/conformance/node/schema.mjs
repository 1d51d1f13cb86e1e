// The conformance schema, defined code-first with graphql-js. schema.go in the
// parent folder defines the same schema with gqlkit: same types, fields,
// arguments, defaults, descriptions and deprecations, declared in the same
// order (the order decides graphql-js's type collection, and so the order of
// __schema.types and of printSchema). Keep the two files in step.
//
// The arguments and input fields that have validation rules in gqlkit
// (Argument.Rules, InputField.Rules) carry here, written out, the
// description gqlkit gives them: their own, then "Rules: ..." in a paragraph
// of its own.
//
// Resolvers read the static data in ../testdata/data.json and a per-request
// State (the context value) that mutations change.

import { readFileSync } from 'node:fs';

import graphql from './graphql.mjs';

const {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
} = graphql;

const data = JSON.parse(
  readFileSync(new URL('../testdata/data.json', import.meta.url), 'utf8'),
);

/** State is what one request may change; every corpus case gets a new one. */
export function newState() {
  return { counter: 0, added: [] };
}

const list = (t) => new GraphQLList(t);
const nonNull = (t) => new GraphQLNonNull(t);

// ---------------------------------------------------------------- scalars

const dateRE = /^(\d{4})-(\d{2})-(\d{2})$/;

// parseDate returns the internal form of a date (an object, so that the
// internal and the serialized forms differ) or throws.
function parseDate(s) {
  const m = typeof s === 'string' ? dateRE.exec(s) : null;
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1]) {
      return { year: y, month: mo, day: d };
    }
  }
  throw new TypeError(`Date cannot represent ${JSON.stringify(s)}: want YYYY-MM-DD.`);
}

function formatDate(v) {
  const pad = (n, w) => String(n).padStart(w, '0');
  return `${pad(v.year, 4)}-${pad(v.month, 2)}-${pad(v.day, 2)}`;
}

const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, written `YYYY-MM-DD`.',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
  serialize(v) {
    if (typeof v === 'string') {
      return formatDate(parseDate(v));
    }
    if (v !== null && typeof v === 'object' && 'year' in v) {
      return formatDate(v);
    }
    throw new TypeError(`Date cannot represent ${JSON.stringify(v)}.`);
  },
  parseValue: (v) => parseDate(v),
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) {
      throw new TypeError(`Date must be a string, got ${ast.kind}.`);
    }
    return parseDate(ast.value);
  },
});

const isOdd = (n) =>
  Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 && Math.abs(n % 2) === 1;

const OddScalar = new GraphQLScalarType({
  name: 'Odd',
  description: 'An odd 32-bit integer.',
  serialize(v) {
    if (isOdd(v)) return v;
    throw new TypeError(`Odd cannot represent ${JSON.stringify(v)}.`);
  },
  parseValue(v) {
    if (isOdd(v)) return v;
    throw new TypeError(`Odd cannot represent ${JSON.stringify(v)}.`);
  },
  // No parseLiteral: graphql-js then converts the literal to a plain value
  // and calls parseValue, as gqlkit does when Scalar.ParseLiteral is nil.
});

// ---------------------------------------------------------------- enums

const Genre = new GraphQLEnumType({
  name: 'Genre',
  description: 'What a book is about.',
  values: {
    FICTION: { value: 'fic', description: 'Made up.' },
    SCIENCE: { value: 'sci' },
    HISTORY: { value: 'hist', description: 'It happened.' },
    POETRY: { value: 'poe', deprecationReason: 'Prose only from now on.' },
  },
});

const BookOrder = new GraphQLEnumType({
  name: 'BookOrder',
  values: {
    TITLE_ASC: { value: 'title-asc' },
    TITLE_DESC: { value: 'title-desc' },
    YEAR_ASC: { value: 'year-asc' },
    YEAR_DESC: { value: 'year-desc', deprecationReason: 'Sort by `YEAR_ASC` and reverse.' },
  },
});

const Color = new GraphQLEnumType({
  name: 'Color',
  description: 'Primary colours; the internal values are the integers 0, 1 and 2.',
  values: {
    RED: { value: 0 },
    GREEN: { value: 1, description: 'The colour of "go".' },
    BLUE: { value: 2 },
  },
});

// ---------------------------------------------------------------- inputs

const YearRange = new GraphQLInputObjectType({
  name: 'YearRange',
  fields: {
    from: { type: nonNull(GraphQLInt) },
    to: { type: GraphQLInt, defaultValue: 2100, description: 'Inclusive.' },
  },
});

const BookFilter = new GraphQLInputObjectType({
  name: 'BookFilter',
  description: 'Which books to list.\n\nEvery field narrows the list.',
  fields: () => ({
    title: {
      type: GraphQLString,
      description: 'A substring of the title.\n\nRules: at most 200 characters.',
    },
    genres: { type: list(nonNull(Genre)) },
    minYear: { type: GraphQLInt },
    maxYear: { type: GraphQLInt, defaultValue: 3000 },
    published: { type: DateScalar },
    limit: { type: GraphQLInt, defaultValue: 10 },
    range: { type: YearRange },
    tags: { type: list(nonNull(GraphQLString)), defaultValue: ['any'] },
    legacy: { type: GraphQLString, deprecationReason: 'Ignored.' },
  }),
});

const BookInput = new GraphQLInputObjectType({
  name: 'BookInput',
  fields: {
    title: {
      type: nonNull(GraphQLString),
      description: 'Rules: trimmed (at most 200 characters).',
    },
    authorId: { type: nonNull(GraphQLID) },
    genre: { type: Genre, defaultValue: 'fic' },
    year: { type: GraphQLInt },
    tags: {
      type: list(nonNull(GraphQLString)),
      defaultValue: [],
      description: 'Rules: at most 20 items; each item: at most 40 characters.',
    },
    published: { type: DateScalar },
    rating: { type: GraphQLFloat },
  },
});

// ---------------------------------------------------------------- objects

function bookByID(state, id) {
  return data.books.find((b) => b.id === id) ?? state.added.find((b) => b.id === id) ?? null;
}

const Book = new GraphQLObjectType({
  name: 'Book',
  description:
    'A book in the "static" library.\n\nIt may hold """triple quotes""" and a backslash: \\',
  fields: () => ({
    id: { type: nonNull(GraphQLID), resolve: (b) => b.id },
    title: { type: nonNull(GraphQLString), resolve: (b) => b.title },
    oldTitle: {
      type: GraphQLString,
      deprecationReason: 'Use `title`.',
      resolve: (b) => b.title,
    },
    author: {
      type: nonNull(Author),
      resolve: (b) => data.authors.find((a) => a.id === b.authorId) ?? null,
    },
    genre: { type: nonNull(Genre), resolve: (b) => b.genre },
    year: { type: GraphQLInt, resolve: (b) => b.year },
    tags: { type: nonNull(list(nonNull(GraphQLString))), resolve: (b) => b.tags },
    published: { type: DateScalar, resolve: (b) => b.published },
    rating: { type: GraphQLFloat, resolve: (b) => b.rating },
    similar: {
      type: nonNull(list(nonNull(Book))),
      resolve: (b, _args, state) => b.similarIds.map((id) => bookByID(state, id)),
    },
    reviews: { type: list(Review), resolve: (b) => b.reviews },
  }),
});

const Author = new GraphQLObjectType({
  name: 'Author',
  fields: () => ({
    id: { type: nonNull(GraphQLID), resolve: (a) => a.id },
    name: { type: nonNull(GraphQLString), resolve: (a) => a.name },
    born: { type: DateScalar, resolve: (a) => a.born },
    books: {
      type: nonNull(list(nonNull(Book))),
      args: { genre: { type: Genre } },
      resolve: (a, args) =>
        data.books.filter(
          (b) => b.authorId === a.id && (args.genre === undefined || args.genre === null || b.genre === args.genre),
        ),
    },
    secret: {
      type: GraphQLString,
      resolve: () => {
        throw new Error('secret is classified');
      },
    },
  }),
});

const Review = new GraphQLObjectType({
  name: 'Review',
  description: "A reader's review.\n",
  fields: {
    stars: { type: nonNull(GraphQLInt), resolve: (r) => r.stars },
    text: { type: GraphQLString, resolve: (r) => r.text },
    reviewer: { type: nonNull(GraphQLString), resolve: (r) => r.reviewer },
  },
});

const RangeEcho = new GraphQLObjectType({
  name: 'RangeEcho',
  fields: {
    keys: { type: nonNull(list(nonNull(GraphQLString))), resolve: (r) => Object.keys(r).sort() },
    from: { type: GraphQLInt, resolve: (r) => r.from },
    to: { type: GraphQLInt, resolve: (r) => r.to },
  },
});

const FilterEcho = new GraphQLObjectType({
  name: 'FilterEcho',
  description: 'The coerced value of a BookFilter argument.',
  fields: {
    keys: {
      type: nonNull(list(nonNull(GraphQLString))),
      description: 'The names of the fields present after coercion, sorted.',
      resolve: (f) => Object.keys(f).sort(),
    },
    title: { type: GraphQLString, resolve: (f) => f.title },
    genres: { type: list(nonNull(Genre)), resolve: (f) => f.genres },
    minYear: { type: GraphQLInt, resolve: (f) => f.minYear },
    maxYear: { type: GraphQLInt, resolve: (f) => f.maxYear },
    published: { type: DateScalar, resolve: (f) => f.published },
    limit: { type: GraphQLInt, resolve: (f) => f.limit },
    range: { type: RangeEcho, resolve: (f) => f.range },
    tags: { type: list(nonNull(GraphQLString)), resolve: (f) => f.tags },
    legacy: { type: GraphQLString, resolve: (f) => f.legacy },
  },
});

const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    id: { type: nonNull(GraphQLInt), resolve: (i) => i.id },
    name: {
      type: nonNull(GraphQLString),
      description: 'Fails for item 2.',
      resolve: (i) => {
        if (i.id === 2) throw new Error('item 2 has no name');
        return `item-${i.id}`;
      },
    },
    label: {
      type: GraphQLString,
      description: 'Fails for item 3.',
      resolve: (i) => {
        if (i.id === 3) throw new Error('item 3 has no label');
        return `label-${i.id}`;
      },
    },
  },
});

const items = () => [{ id: 1 }, { id: 2 }, { id: 3 }];
const fail = (msg) => () => {
  throw new Error(msg);
};

const Nest = new GraphQLObjectType({
  name: 'Nest',
  description: 'Fields that fail in every way a field can.',
  fields: () => ({
    ok: { type: GraphQLString, resolve: () => 'ok' },
    fail: { type: GraphQLString, resolve: fail('nest.fail') },
    failNonNull: { type: nonNull(GraphQLString), resolve: fail('nest.failNonNull') },
    nullNonNull: { type: nonNull(GraphQLString), resolve: () => null },
    listWithNull: { type: list(GraphQLString), resolve: () => ['a', null, 'c'] },
    listOfNonNullWithNull: { type: list(nonNull(GraphQLString)), resolve: () => ['a', null, 'c'] },
    nonNullListOfNonNullWithNull: {
      type: nonNull(list(nonNull(GraphQLString))),
      resolve: () => ['a', null],
    },
    nestedLists: { type: list(list(nonNull(GraphQLInt))), resolve: () => [[1, 2], [3, null], [4]] },
    failList: { type: list(GraphQLString), resolve: fail('nest.failList') },
    items: { type: list(Item), resolve: items },
    nonNullItems: { type: list(nonNull(Item)), resolve: items },
    strictItems: { type: nonNull(list(nonNull(Item))), resolve: items },
    child: { type: Nest, resolve: () => ({}) },
    nonNullChild: { type: nonNull(Nest), resolve: () => ({}) },
  }),
});

// ---------------------------------------------------------------- roots

function listBooks(state, args) {
  const all = [...data.books, ...state.added];
  const f = args.filter;
  let out = all.filter((b) => {
    if (args.genre !== undefined && args.genre !== null && b.genre !== args.genre) return false;
    if (!f) return true;
    if (f.title != null && !b.title.includes(f.title)) return false;
    if (f.genres != null && !f.genres.includes(b.genre)) return false;
    if (b.year != null) {
      if (f.minYear != null && b.year < f.minYear) return false;
      if (f.maxYear != null && b.year > f.maxYear) return false;
      if (f.range != null && (b.year < f.range.from || (f.range.to != null && b.year > f.range.to))) return false;
    }
    if (f.published != null && b.published !== formatDate(f.published)) return false;
    if (f.tags != null && f.tags.length > 0 && !f.tags.includes('any')) {
      if (!b.tags.some((t) => f.tags.includes(t))) return false;
    }
    return true;
  });
  const byTitle = (a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
  const byYear = (a, b) => {
    if (a.year === b.year) return 0;
    if (a.year == null) return 1;
    if (b.year == null) return -1;
    return a.year - b.year;
  };
  const order = {
    'title-asc': byTitle,
    'title-desc': (a, b) => byTitle(b, a),
    'year-asc': byYear,
    'year-desc': (a, b) => (a.year == null || b.year == null ? byYear(a, b) : b.year - a.year),
  }[args.orderBy];
  out = out.map((b, i) => [b, i]).sort(([a, i], [b, j]) => order(a, b) || i - j).map(([b]) => b);
  if (args.first != null) {
    if (args.first < 0) {
      throw new Error('first must not be negative');
    }
    out = out.slice(0, args.first);
  }
  if (f && f.limit != null) {
    out = out.slice(0, Math.max(f.limit, 0));
  }
  return out;
}

const Query = new GraphQLObjectType({
  name: 'Query',
  description: 'Reads.\n\n  Indented "line" kept.',
  fields: {
    hello: { type: GraphQLString, resolve: () => 'world' },
    greet: {
      type: nonNull(GraphQLString),
      args: {
        name: {
          type: GraphQLString,
          defaultValue: 'world',
          description: 'Who to greet.\n\nRules: at most 100 characters.',
        },
        times: { type: GraphQLInt, defaultValue: 1 },
      },
      resolve: (_, { name, times }) => {
        if (times < 0) throw new Error('times must not be negative');
        return `hello ${name}`.concat('!'.repeat(Math.min(times, 5)));
      },
    },
    book: {
      type: Book,
      args: { id: { type: nonNull(GraphQLID) } },
      resolve: (_, { id }, state) => bookByID(state, id),
    },
    books: {
      type: nonNull(list(nonNull(Book))),
      description: 'Books, filtered and ordered.',
      args: {
        filter: { type: BookFilter },
        first: { type: GraphQLInt, defaultValue: 10 },
        orderBy: { type: BookOrder, defaultValue: 'title-asc' },
        genre: { type: Genre, deprecationReason: 'Use `filter.genres`.' },
      },
      resolve: (_, args, state) => listBooks(state, args),
    },
    authors: { type: nonNull(list(nonNull(Author))), resolve: () => data.authors },
    author: {
      type: Author,
      args: { id: { type: nonNull(GraphQLID) } },
      resolve: (_, { id }) => data.authors.find((a) => a.id === id) ?? null,
    },
    echoInt: { type: GraphQLInt, args: { v: { type: GraphQLInt } }, resolve: (_, a) => a.v },
    echoFloat: { type: GraphQLFloat, args: { v: { type: GraphQLFloat } }, resolve: (_, a) => a.v },
    echoString: { type: GraphQLString, args: { v: { type: GraphQLString } }, resolve: (_, a) => a.v },
    echoBoolean: { type: GraphQLBoolean, args: { v: { type: GraphQLBoolean } }, resolve: (_, a) => a.v },
    echoID: { type: GraphQLID, args: { v: { type: GraphQLID } }, resolve: (_, a) => a.v },
    echoInts: {
      type: list(nonNull(GraphQLInt)),
      args: { v: { type: list(nonNull(GraphQLInt)) } },
      resolve: (_, a) => a.v,
    },
    echoNested: {
      type: list(list(GraphQLInt)),
      args: { v: { type: list(list(GraphQLInt)) } },
      resolve: (_, a) => a.v,
    },
    echoColor: { type: Color, args: { c: { type: Color } }, resolve: (_, a) => a.c },
    colorValue: {
      type: GraphQLInt,
      description: 'The internal value of `c`.',
      args: { c: { type: nonNull(Color) } },
      resolve: (_, a) => a.c,
    },
    echoColors: {
      type: nonNull(list(nonNull(Color))),
      args: { cs: { type: nonNull(list(nonNull(Color))), defaultValue: [0] } },
      resolve: (_, a) => a.cs,
    },
    echoDate: { type: DateScalar, args: { d: { type: DateScalar } }, resolve: (_, a) => a.d },
    echoOdd: { type: OddScalar, args: { o: { type: OddScalar } }, resolve: (_, a) => a.o },
    echoFilter: {
      type: FilterEcho,
      args: { f: { type: BookFilter, defaultValue: { title: 'Dune', maxYear: 3000, limit: 10, tags: ['any'] } } },
      resolve: (_, a) => a.f,
    },
    echoRequired: {
      type: nonNull(GraphQLString),
      args: {
        n: { type: nonNull(GraphQLInt) },
        s: { type: nonNull(GraphQLString), defaultValue: 'dflt' },
      },
      resolve: (_, a) => `${a.n}:${a.s}`,
    },
    nest: { type: Nest, resolve: () => ({}) },
    nonNullNest: { type: nonNull(Nest), resolve: () => ({}) },
    failNullable: { type: GraphQLString, resolve: fail('failNullable') },
    failNonNull: { type: nonNull(GraphQLString), resolve: fail('failNonNull') },
    counter: { type: nonNull(GraphQLInt), resolve: (_, _a, state) => state.counter },
    badColor: { type: Color, resolve: () => 42 },
    badDate: { type: DateScalar, resolve: () => '2021-02-29' },
    badInt: { type: GraphQLInt, resolve: () => 2147483648 },
    badIntFloat: { type: GraphQLInt, resolve: () => 1.5 },
    intFromFloat: { type: GraphQLInt, resolve: () => 3.0 },
    stringFromInt: { type: GraphQLString, resolve: () => 42 },
    idFromInt: { type: GraphQLID, resolve: () => 7 },
    nowDeprecated: {
      type: GraphQLString,
      deprecationReason: 'No longer supported',
      resolve: () => 'still here',
    },
  },
});

function addBook(state, input) {
  if (!data.authors.some((a) => a.id === input.authorId)) {
    throw new Error(`unknown author ${input.authorId}`);
  }
  const book = {
    id: String(100 + state.added.length),
    title: input.title,
    authorId: input.authorId,
    genre: input.genre,
    year: input.year ?? null,
    tags: input.tags ?? [],
    published: input.published == null ? null : formatDate(input.published),
    rating: input.rating ?? null,
    similarIds: [],
    reviews: null,
  };
  state.added.push(book);
  return book;
}

const Mutation = new GraphQLObjectType({
  name: 'Mutation',
  description: 'Writes. Root fields run one after another.',
  fields: {
    increment: {
      type: nonNull(GraphQLInt),
      args: { by: { type: GraphQLInt, defaultValue: 1 } },
      resolve: (_, { by }, state) => (state.counter += by),
    },
    failingIncrement: {
      type: GraphQLInt,
      description: 'Increments, then fails.',
      args: { by: { type: GraphQLInt, defaultValue: 1 } },
      resolve: (_, { by }, state) => {
        state.counter += by;
        throw new Error(`failed after incrementing to ${state.counter}`);
      },
    },
    failNonNull: { type: nonNull(GraphQLInt), resolve: fail('mutation failNonNull') },
    counter: { type: nonNull(GraphQLInt), resolve: (_, _a, state) => state.counter },
    addBook: {
      type: nonNull(Book),
      args: { input: { type: nonNull(BookInput) } },
      resolve: (_, { input }, state) => addBook(state, input),
    },
  },
});

export const schema = new GraphQLSchema({
  description: 'The gqlkit conformance schema: a small library.',
  query: Query,
  mutation: Mutation,
});
