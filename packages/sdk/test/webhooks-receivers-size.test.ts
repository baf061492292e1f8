/**
 * The receivers are entries of their own: they do not grow the verifier's entries (whose
 * budgets are in webhooks-size.test.ts), and each stays within its own budget, bundled with
 * esbuild, minified and gzipped, as an application would bundle it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const webhooks = join(import.meta.dirname, '..', 'src', 'webhooks');
const dist = join(import.meta.dirname, '..', 'dist');

async function bundle(contents: string, platform: 'node' | 'browser') {
  const result = await build({
    stdin: { contents, resolveDir: webhooks, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // In a browser or worker bundle a `node:` import would fail the build: it must not be there.
    external: platform === 'node' ? ['node:*'] : [],
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { gzip: gzipSync(code).byteLength, code: new TextDecoder().decode(code) };
}

describe('receiver sizes', () => {
  it.each([
    ['createNodeHandler', './receivers/node.ts', 'node'],
    ['createFastifyPlugin, createFastifyHandler', './receivers/fastify.ts', 'node'],
    ['createFetchHandler', './receivers/fetch.ts', 'browser'],
  ] as const)('%s, verifier included: at most 4 kB min+gzip, without zod', async (names, file, platform) => {
    const size = await bundle(`export { ${names} } from ${JSON.stringify(file)};`, platform);
    expect(size.gzip).toBeLessThanOrEqual(4000);
    expect(size.code).not.toMatch(/zod/);
  });

  it('the verifier entries hold no receiver code', async () => {
    for (const [entry, platform] of [
      ['./node.ts', 'node'],
      ['./web.ts', 'browser'],
    ] as const) {
      const { code } = await bundle(`export * from ${JSON.stringify(entry)};`, platform);
      expect(code).not.toMatch(/WebhookReceiverError|handler_failed|method_not_allowed/);
      expect(code).toMatch(/signature_mismatch/);
    }
  });

  it('nor does the build: the verifier entries import no chunk that holds receiver code', () => {
    for (const entry of ['webhooks/node.js', 'webhooks/web.js']) {
      const source = readFileSync(join(dist, entry), 'utf8');
      const chunks = [...source.matchAll(/from '\.\.\/(chunk-[\w-]+\.js)'/g)].map((match) => match[1] as string);
      for (const text of [source, ...chunks.map((chunk) => readFileSync(join(dist, chunk), 'utf8'))]) {
        expect(text).not.toMatch(/WebhookReceiverError|createReceiver/);
      }
    }
  });
});
