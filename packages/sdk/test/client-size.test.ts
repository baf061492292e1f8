/**
 * Size budget of the client: what an application bundles when it imports the client, two
 * operations, pagination and the error classes from the built package, minified by esbuild
 * and gzipped, the path API included: at most 6 kB. Also checks that the operations it
 * does not import stay out (the generated table is tree-shakable).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
  }
});

/** Bundles `import { names } from '@ocs/sdk'` as an application would, keeping each import alive. */
async function bundle(names: string[]): Promise<{ min: number; gzip: number; code: string }> {
  const contents = `import { ${names.join(', ')} } from '@ocs/sdk';\nglobalThis.used = [${names.join(', ')}];\n`;
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { min: code.byteLength, gzip: gzipSync(code).byteLength, code: new TextDecoder().decode(code) };
}

const errors = [
  'OcsError',
  'OcsApiError',
  'OcsBadRequestError',
  'OcsAuthenticationError',
  'OcsPermissionDeniedError',
  'OcsNotFoundError',
  'OcsConflictError',
  'OcsPayloadTooLargeError',
  'OcsRateLimitError',
  'OcsInternalServerError',
  'OcsServiceUnavailableError',
  'OcsConnectionError',
  'OcsTimeoutError',
  'OcsAbortError',
];

describe('client size', () => {
  it('createClient, createCampaign, paginate, listLeads and the errors: at most 6 kB min+gzip', async () => {
    const size = await bundle(['createClient', 'createCampaign', 'paginate', 'listLeads', ...errors]);
    expect(size.gzip).toBeLessThanOrEqual(6_000);
    // The path API is in, the operations not imported are not.
    expect(size.code).toContain('Content-Type');
    expect(size.code).toContain('POST /campaigns');
    expect(size.code).toContain('GET /leads');
    for (const absent of ['GET /accounts', 'verifyAuth', 'getCampaign', 'operationTable', 'zod']) {
      expect(size.code).not.toContain(absent);
    }
  });

  it('one named operation costs about a hundred bytes', async () => {
    const base = await bundle(['createClient', 'getCampaign']);
    const more = await bundle(['createClient', 'getCampaign', 'getLead', 'getDeal', 'getPipeline']);
    expect((more.gzip - base.gzip) / 3).toBeLessThan(100);
  });
});
