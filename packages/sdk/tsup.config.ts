import { readFileSync } from 'node:fs';
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
});
