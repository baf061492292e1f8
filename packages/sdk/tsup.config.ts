import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };

// ESM and CJS with declarations for every entry. `node:crypto` and `node:buffer` stay
// external, with their `node:` prefix (Deno and bundlers need it): only the Node build of
// the webhook verifier imports them.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'webhooks/node': 'src/webhooks/node.ts',
    'webhooks/web': 'src/webhooks/web.ts',
    // The receivers (docs/decisions/0015): entries of their own, so the verifier's stay as small.
    'webhooks/receivers/node': 'src/webhooks/receivers/node.ts',
    'webhooks/receivers/fastify': 'src/webhooks/receivers/fastify.ts',
    'webhooks/receivers/fetch': 'src/webhooks/receivers/fetch.ts',
    zod: 'src/zod.ts',
    // `@ocs/sdk/resources`: built on the package entry (entryImports, below).
    resources: 'src/resources.ts',
    // `@ocs/sdk/types`: the document's types alone (an empty module at runtime).
    types: 'src/generated/openapi.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['node:crypto', 'node:buffer'],
  removeNodeProtocol: false,
  // The version in the X-OCS-Client header (src/runtime.ts).
  define: { __OCS_SDK_VERSION__: JSON.stringify(version) },
  esbuildPlugins: [entryImports()],
});

/**
 * An entry that imports `src/index.ts` (`@ocs/sdk/resources`) loads the built package entry
 * (`./index.js`, `./index.cjs`) rather than bundling a copy of it, so that an application
 * that uses both has one copy of the client's runtime and error classes (`instanceof`), in
 * CommonJS too, where tsup splits no chunks. Such entries sit beside `index` in `dist/`.
 */
function entryImports(): Plugin {
  const index = fileURLToPath(new URL('src/index.ts', import.meta.url));
  return {
    name: 'entry-imports',
    setup(build) {
      // The extension tsup gives this build's files: `.js` for ESM, `.cjs` for CommonJS.
      const file = `./index${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
      build.onResolve({ filter: /\/index\.ts$/ }, ({ path, resolveDir, kind }) =>
        kind !== 'entry-point' && fileURLToPath(new URL(path, `file://${resolveDir}/`)) === index
          ? { path: file, external: true }
          : undefined,
      );
    },
  };
}
