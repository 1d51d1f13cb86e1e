// The pinned graphql-js, for run.mjs and schema.mjs (one instance for
// both). The Go test installs it outside the source tree and names the npm
// prefix that holds it in GQLKIT_GRAPHQL_JS_PREFIX (ES modules do not read
// NODE_PATH). Without the variable, node's own resolution applies: a
// node_modules beside this file, as after `npm ci` here.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const prefix = process.env.GQLKIT_GRAPHQL_JS_PREFIX;

export default await import(
  prefix ? pathToFileURL(join(prefix, 'node_modules', 'graphql', 'index.mjs')).href : 'graphql'
);
