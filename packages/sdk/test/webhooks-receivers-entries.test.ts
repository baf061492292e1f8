/**
 * The receivers' subpath exports as Node resolves them, from the build: ESM `import` and
 * CommonJS `require` of `@ocs/sdk/webhooks/node`, `/fastify` and `/fetch` (attw and publint
 * check their types in packaging.test.ts). Run in a child process, as a user's program would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');

beforeAll(() => {
  if (!existsSync(join(pkgDir, 'dist', 'webhooks', 'receivers', 'fetch.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
  }
});

const run = (args: string[]) => JSON.parse(execFileSync(process.execPath, args, { cwd: pkgDir, encoding: 'utf8' }));

const expected = {
  node: ['WebhookReceiverError', 'WebhookVerificationError', 'createNodeHandler'],
  fastify: ['WebhookReceiverError', 'WebhookVerificationError', 'createFastifyHandler', 'createFastifyPlugin'],
  fetch: ['WebhookReceiverError', 'WebhookVerificationError', 'createFetchHandler'],
};

it('imports each receiver as ESM, sharing WebhookVerificationError with @ocs/sdk/webhooks', () => {
  const script = `
    const verifier = await import('@ocs/sdk/webhooks');
    const out = {};
    for (const name of ['node', 'fastify', 'fetch']) {
      const entry = await import('@ocs/sdk/webhooks/' + name);
      out[name] = { exports: Object.keys(entry).sort(), sameError: entry.WebhookVerificationError === verifier.WebhookVerificationError };
    }
    console.log(JSON.stringify(out));`;
  const result = run(['--input-type=module', '-e', script]);
  for (const [name, exports] of Object.entries(expected)) {
    expect(result[name]).toEqual({ exports, sameError: true });
  }
});

it('requires each receiver as CommonJS', () => {
  const script = `
    const out = {};
    for (const name of ['node', 'fastify', 'fetch']) out[name] = Object.keys(require('@ocs/sdk/webhooks/' + name)).sort();
    console.log(JSON.stringify(out));`;
  expect(run(['--input-type=commonjs', '-e', script])).toEqual(expected);
});
