import { defineConfig, type Options } from 'tsup';

// @ocs/server is private, so its source (and the OpenAPI document it imports as JSON) is
// bundled in; its runtime dependencies (hono, ajv...) and @ocs/sdk stay dependencies, and
// msw a peer dependency.
const shared: Options = {
  sourcemap: true,
  target: 'es2022',
  noExternal: ['@ocs/server', '@ocs/sdk/openapi.json'],
  external: [/^node:/, 'msw', /^msw\//, '@hono/node-server', 'yaml'],
  removeNodeProtocol: false,
};

export default defineConfig([
  // The library entries: ESM and CJS with declarations.
  {
    ...shared,
    entry: {
      'node/index': 'src/node/index.ts',
      'browser/index': 'src/browser/index.ts',
      'wrong-env/node-in-browser': 'src/wrong-env/node-in-browser.ts',
      'wrong-env/browser-in-node': 'src/wrong-env/browser-in-node.ts',
    },
    format: ['esm', 'cjs'],
    dts: { entry: { 'node/index': 'src/node/index.ts', 'browser/index': 'src/browser/index.ts' } },
    platform: 'neutral',
  },
  // Node-only programs: the CLI (top-level await) and the Prism launcher (import.meta.url).
  {
    ...shared,
    entry: { 'server/cli': 'src/server/cli.ts', 'prism/start-prism': 'src/prism/start-prism.ts' },
    format: ['esm'],
    dts: { entry: { 'prism/start-prism': 'src/prism/start-prism.ts' } },
    platform: 'node',
  },
]);
