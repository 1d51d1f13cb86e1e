// The graphql-js side of gqlkit's differential conformance suite.
//
//   node run.mjs corpus DIR
//       Runs every case of every DIR/*.json file through graphql-js and prints
//       {"sdl": printSchema(schema), "abstractSdl": printSchema(abstractSchema),
//       "cases": [{name, valid, data?, errors}]}. A case runs on the schema
//       its "schema" names: "abstract" (abstract-schema.mjs) or, without
//       one, the library (schema.mjs).
//   node run.mjs client-sdl < introspection.json
//       Reads an introspection result ({"data": {...}} or the data object),
//       and prints {"sdl": printSchema(buildClientSchema(result))} or
//       {"error": "..."} when graphql-js refuses the result.
//   node run.mjs validate-schemas < schemas.json
//       Reads [{name, sdl}], builds each with buildSchema and checks it with
//       validateSchema, and prints [{name, errors: [message...]}]; a schema
//       that buildSchema refuses has its one error.
//   node run.mjs introspection-query
//       Prints getIntrospectionQuery() with every option on, for a server
//       whose SDL is checked with client-sdl (the example server's).
//
// "valid" means the request was accepted for execution: it parsed,
// validated, its variables coerced and an operation was selected, which in
// graphql-js is execute() returning a result with a data entry.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import graphql from './graphql.mjs';
import { abstractSchema } from './abstract-schema.mjs';
import { newState, schema } from './schema.mjs';

const {
  buildClientSchema,
  buildSchema,
  execute,
  getIntrospectionQuery,
  parse,
  printSchema,
  validate,
  validateSchema,
} = graphql;

const schemas = { '': schema, abstract: abstractSchema };

function errorShape(e) {
  return {
    message: e.message,
    path: e.path ?? null,
    locations: e.locations ?? null,
  };
}

async function runCase(c) {
  const schema = schemas[c.schema ?? ''];
  if (schema === undefined) {
    throw new Error(`case ${c.name}: unknown schema ${JSON.stringify(c.schema)}`);
  }
  let document;
  try {
    document = parse(c.query);
  } catch (e) {
    return { valid: false, errors: [errorShape(e)] };
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length > 0) {
    return { valid: false, errors: validationErrors.map(errorShape) };
  }
  const result = await execute({
    schema,
    document,
    variableValues: c.variables ?? undefined,
    operationName: c.operationName ?? undefined,
    contextValue: newState(),
  });
  const errors = (result.errors ?? []).map(errorShape);
  if (result.data === undefined) {
    return { valid: false, errors };
  }
  return { valid: true, data: result.data, errors };
}

function readCorpus(dir) {
  const cases = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const list = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const c of list) {
      cases.push(c);
    }
  }
  return cases;
}

async function main(argv) {
  switch (argv[0]) {
    case 'corpus': {
      const out = [];
      for (const c of readCorpus(argv[1])) {
        out.push({ name: c.name, ...(await runCase(c)) });
      }
      process.stdout.write(
        JSON.stringify({ sdl: printSchema(schema), abstractSdl: printSchema(abstractSchema), cases: out }),
      );
      return 0;
    }
    case 'client-sdl': {
      const input = JSON.parse(readFileSync(0, 'utf8'));
      try {
        const client = buildClientSchema(input.data ?? input);
        process.stdout.write(JSON.stringify({ sdl: printSchema(client) }));
      } catch (e) {
        process.stdout.write(JSON.stringify({ error: String(e && e.message) }));
      }
      return 0;
    }
    case 'validate-schemas': {
      const out = [];
      for (const { name, sdl } of JSON.parse(readFileSync(0, 'utf8'))) {
        let errors;
        try {
          errors = validateSchema(buildSchema(sdl)).map((e) => e.message);
        } catch (e) {
          errors = [`buildSchema: ${e && e.message}`];
        }
        out.push({ name, errors });
      }
      process.stdout.write(JSON.stringify(out));
      return 0;
    }
    case 'introspection-query': {
      process.stdout.write(
        getIntrospectionQuery({
          descriptions: true,
          specifiedByUrl: true,
          directiveIsRepeatable: true,
          schemaDescription: true,
          inputValueDeprecation: true,
          oneOf: true,
        }),
      );
      return 0;
    }
    default:
      process.stderr.write(
        'usage: node run.mjs corpus DIR | node run.mjs client-sdl < result.json |' +
          ' node run.mjs validate-schemas < schemas.json | node run.mjs introspection-query\n',
      );
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
