import { readFileSync, writeFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// @ocs/server is private, so its source (and the OpenAPI document it imports as JSON) is
// bundled in, with what it runs on (Hono and its Node adapter, the two small Ajv helpers the
// precompiled validators call): one file instead of the dozens of small modules Node would
// resolve and read at every start, and less to install. yaml (loaded only for
// /openapi.yaml) and @ocs/sdk stay dependencies, msw a peer dependency (the test's own MSW must be the one the handlers belong to). No
// source maps: the bundle is plain, readable JavaScript, and maps of the whole server
// (sources included) would be most of the tarball.
const shared: Options = {
  sourcemap: false,
  esbuildPlugins: [jsonAsParsedText()],
  target: 'es2022',
  noExternal: [
    '@ocs/server',
    '@ocs/sdk/openapi.json',
    'hono',
    /^hono\//,
    '@hono/node-server',
    /^ajv\//,
    /^ajv-formats\//,
  ],
  external: [/^node:/, 'msw', /^msw\//, 'yaml'],
  removeNodeProtocol: false,
};

/**
 * JSON modules (the OpenAPI document: half the engine's bytes) as `JSON.parse` of a string
 * rather than esbuild's object literal: V8 reads JSON text several times faster than the
 * same data as JavaScript, and the document is read at every start.
 */
function jsonAsParsedText(): Plugin {
  return {
    name: 'json-as-parsed-text',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, ({ path }) => ({
        contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))))});`,
        loader: 'js',
      }));
    },
  };
}

/** The ESM entries that hold the engine, and their CommonJS twins. */
const engineEntries = { 'node/index': 'src/node/index.ts', 'browser/index': 'src/browser/index.ts' };

/**
 * A CommonJS entry is one line: it loads the ESM entry with require(), which Node does from
 * 20.19 (the package's engines) and bundlers always did, so the engine ships once.
 */
function writeCommonJsTwins(): void {
  for (const entry of Object.keys(engineEntries)) {
    writeFileSync(
      `dist/${entry}.cjs`,
      `'use strict';\n// The ES module, loaded with require() (Node >= 20.19): one copy of the engine for both.\nmodule.exports = require('./index.js');\n`,
    );
  }
}

export default defineConfig([
  // Every entry as ESM in one build: the engine (the reference server's application) is one
  // shared chunk, whichever entry or program loads it.
  {
    ...shared,
    entry: {
      ...engineEntries,
      'wrong-env/node-in-browser': 'src/wrong-env/node-in-browser.ts',
      'wrong-env/browser-in-node': 'src/wrong-env/browser-in-node.ts',
      // Node-only programs: the webhook tools and the Prism launcher.
      'cli/ocs': 'src/cli/ocs.ts',
      'prism/start-prism': 'src/prism/start-prism.ts',
    },
    format: ['esm'],
    splitting: true,
    dts: { entry: { ...engineEntries, 'prism/start-prism': 'src/prism/start-prism.ts' } },
    platform: 'neutral',
    onSuccess: async () => writeCommonJsTwins(),
  },
  // The wrong-environment errors for require() (no engine in them).
  {
    ...shared,
    entry: {
      'wrong-env/node-in-browser': 'src/wrong-env/node-in-browser.ts',
      'wrong-env/browser-in-node': 'src/wrong-env/browser-in-node.ts',
    },
    format: ['cjs'],
    platform: 'neutral',
  },
  // The standalone mock (`ocs-mock`) as one CommonJS file with its own copy of the engine, and the
  // loader its bin requires (compile-cache.ts): Node 20 keeps V8's code cache only of a script,
  // not of an ES module, and the cache saves a fifth of the start (decision 0022).
  // `import.meta.url` is shimmed from `__filename`.
  {
    ...shared,
    entry: { 'server/cli': 'src/server/cli.ts', 'server/compile-cache': 'src/server/compile-cache.ts' },
    format: ['cjs'],
    platform: 'node',
    shims: true,
    // `import('yaml')` as `require('yaml')`: a script run with a code cache has no dynamic
    // import() on Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING once the cache is used).
    esbuildOptions: (options) => {
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
  },
  // The CommonJS declarations (.d.cts) of the engine entries; their JavaScript is written above.
  { ...shared, entry: engineEntries, format: ['cjs'], dts: { only: true }, platform: 'neutral' },
]);
