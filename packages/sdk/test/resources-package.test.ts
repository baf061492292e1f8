/**
 * `@ocs/sdk/resources` as built: it loads the package entry rather than carrying a copy of
 * the client, so that an application that imports both (CommonJS or ESM) has one set of
 * error classes, and `instanceof` holds for the errors of resource calls. Runs on the build
 * (`npm test` runs tsup first), on a real node:http server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Sdk from '@ocs/sdk';
import type * as SdkResources from '@ocs/sdk/resources';
import { beforeAll, expect, it } from 'vitest';
import { json, startServer } from './helpers/http.ts';

// The built package's own types, as an application sees them.
type Entry = typeof Sdk;
type Resources = typeof SdkResources;

const dist = join(import.meta.dirname, '..', 'dist');
const require = createRequire(import.meta.url);

beforeAll(() => {
  if (!existsSync(join(dist, 'resources.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
  }
});

const notFound = () =>
  startServer((_request, response) =>
    json(response, 404, { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.' }),
  );

it('loads the built package entry, for ESM and CommonJS, and bundles none of it', () => {
  const esm = readFileSync(join(dist, 'resources.js'), 'utf8');
  const cjs = readFileSync(join(dist, 'resources.cjs'), 'utf8');
  expect(esm).toMatch(/^import \{[^}]*\bcreateClient\b[^}]*\} from '\.\/index\.js';$/m);
  expect(cjs).toMatch(/require\('\.\/index\.cjs'\)/);
  for (const code of [esm, cjs]) {
    expect(code).not.toMatch(/class OcsError|X-OCS-Client|Idempotency-Key/);
  }
});

it.each([
  ['CommonJS', async () => [require('@ocs/sdk') as Entry, require('@ocs/sdk/resources') as Resources] as const],
  ['ESM', async () => [await import('@ocs/sdk'), await import('@ocs/sdk/resources')] as const],
])('%s: an error of a resource call is an instance of the entry’s class', async (_format, load) => {
  const [entry, resources] = await load();
  const server = await notFound();
  const client = entry.createClient({ apiKey: 'ocs_test_0123456789', baseUrl: server.baseUrl });
  const error = await new resources.Ocs(client).campaigns
    .get({ campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14' })
    .then(
      () => undefined,
      (reason: unknown) => reason,
    );
  expect(error).toBeInstanceOf(entry.OcsNotFoundError);
  expect(error).toBeInstanceOf(entry.OcsApiError);
  // And a client the resources entry makes is the entry's too.
  const own = new resources.Ocs({ apiKey: 'ocs_test_0123456789', baseUrl: server.baseUrl });
  const result = await own.client.GET('/campaigns/{campaign_id}', {
    params: { path: { campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14' } },
  });
  expect(result.response.status).toBe(404);
  await expect(entry.getCampaign(own.client, { campaign_id: 'x' })).rejects.toBeInstanceOf(entry.OcsNotFoundError);
});
