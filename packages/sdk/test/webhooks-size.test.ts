/**
 * Size budget of the webhook verifier: the Node entry, imported for verification only, at
 * most 1.5 kB minified and gzipped (bundled with esbuild as an application would bundle it).
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = (name: string) => join(import.meta.dirname, '..', 'src', 'webhooks', name);

async function minGzip(contents: string): Promise<{ min: number; gzip: number; code: string }> {
  const result = await build({
    stdin: { contents, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { min: code.byteLength, gzip: gzipSync(code).byteLength, code: new TextDecoder().decode(code) };
}

describe('webhook verifier size', () => {
  it('Node entry, verify-only import: at most 1.5 kB min+gzip, without zod', async () => {
    const size = await minGzip(
      `export { verifySignature, verifyAndParse, WebhookVerificationError } from ${JSON.stringify(entry('node.ts'))};`,
    );
    expect(size.gzip).toBeLessThanOrEqual(1500);
    expect(size.code).not.toMatch(/zod/);
    expect(size.code).toMatch(/from"node:crypto"/);
  });

  it('Node entry, everything (signing, signed requests, dedupe): at most 2.5 kB min+gzip', async () => {
    const size = await minGzip(`export * from ${JSON.stringify(entry('node.ts'))};`);
    expect(size.gzip).toBeLessThanOrEqual(2500);
  });
});
