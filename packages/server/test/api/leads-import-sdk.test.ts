/**
 * The SDK's `importLeads` against the server's application on every store: a retried batch
 * (the SDK retries a keyed POST after a 500, with the same `Idempotency-Key`) creates every
 * lead once, and the answer is typed and read as the batch's.
 */
import { createClient, importLeads, listLeads } from '@ocs/sdk';
import { expect, it } from 'vitest';
import { createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { steppingClock } from '../support/lead-fixtures.ts';

describeBackends('importLeads through the SDK', (store) => {
  it('retries a batch whose answer was lost with its key, creating each lead once', async () => {
    const api = await createTestApi(store(), { clock: steppingClock() });
    let calls = 0;
    const client = createClient({
      apiKey: api.key,
      baseUrl: 'http://localhost/v1',
      logger: { warn() {} },
      // The first answer is lost on its way back (after the server applied the batch): the
      // client sees a 503 and retries with the same key.
      fetch: async (input, init) => {
        const answer = await api.app.fetch(new Request(input, init));
        if (new URL(new Request(input, init).url).pathname === '/v1/leads' && calls++ === 0) {
          return new Response(
            JSON.stringify({ success: false, error: 'SERVICE_UNAVAILABLE', message: 'lost', request_id: 'x' }),
            {
              status: 503,
              headers: { 'Content-Type': 'application/json', 'Retry-After': '0' },
            },
          );
        }
        return answer;
      },
    });
    const leads = Array.from({ length: 50 }, (_, n) => ({ linkedin_profile: `https://www.linkedin.com/in/sdk-${n}` }));
    const imported = await importLeads(client, leads, { idempotencyKey: 'sdk-import' });
    expect(calls).toBe(2);
    expect(imported.status).toBe(207);
    expect(imported.headers.get('idempotent-replayed')).toBe('true');
    expect(imported.created).toBe(50);
    expect(imported.results.map((result) => result.index)).toEqual(leads.map((_, n) => n));
    expect((await listLeads(client, { limit: 1 })).total).toBe(50);
  });
});
