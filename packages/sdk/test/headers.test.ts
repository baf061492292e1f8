/**
 * How the headers of the SDK, the client and the call merge: by name in any case (as
 * `Headers` does), never sent twice, the call's over the client's, and the SDK's own where
 * the README promises them (`Authorization` from `apiKey`, JSON's `Content-Type`, the
 * `Idempotency-Key` the result reports). MSW sees the request as the service would: a
 * header set twice arrives as one value joined by ", ".
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createAccountConnectLink, createCampaign, getCampaign, OcsConnectionError, OcsError } from '../src/index.ts';
import { apiKey, baseUrl, testClient, useMsw } from './helpers/msw.ts';

const { server, seen } = useMsw();
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const get = (client = testClient(), headers?: Record<string, string>) =>
  getCampaign(client, { campaign_id }, { headers });
const created = { success: true, campaign_id, campaign: null };

const answer = () => {
  server.use(
    http.get(`${baseUrl}/campaigns/${campaign_id}`, () => HttpResponse.json({ success: true, campaign: {} })),
    http.post(`${baseUrl}/campaigns`, () => HttpResponse.json(created, { status: 201 })),
  );
};
const sent = (name: string) => seen.map((request) => request.headers.get(name));

describe('headers', () => {
  it("merge by name in any case, the call's over the client's, each sent once", async () => {
    answer();
    const client = testClient({ headers: { 'x-env': 'staging', 'user-agent': 'my-app/1' } });
    await get(client, { 'X-ENV': 'prod' });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, headers: { 'X-Env': 'dev' } });
    expect(sent('x-env')).toEqual(['prod', 'dev']);
    expect(sent('user-agent')).toEqual(['my-app/1', 'my-app/1']);
  });

  it.each(['Authorization', 'authorization', 'AUTHORIZATION'])(
    'take Authorization from apiKey only, whatever the client or the call says (%s)',
    async (name) => {
      answer();
      const client = testClient({ headers: { [name]: 'Bearer ocs_client_other' } });
      await get(client, { [name]: 'Bearer ocs_call_other' });
      await client.GET('/campaigns/{campaign_id}', {
        params: { path: { campaign_id } },
        headers: { [name]: 'Bearer ocs_call_other' },
      });
      expect(sent('authorization')).toEqual([`Bearer ${apiKey}`, `Bearer ${apiKey}`]);
    },
  );

  it('send JSON bodies as application/json once, whatever Content-Type the call gives', async () => {
    answer();
    await createCampaign(testClient(), { name: 'Q4' }, { headers: { 'content-type': 'text/plain' } });
    expect(sent('content-type')).toEqual(['application/json']);
  });

  it('make an Idempotency-Key header, in any case, the key: sent once and reported', async () => {
    answer();
    const result = await createCampaign(testClient(), { name: 'Q4' }, { headers: { 'idempotency-key': 'mine-1' } });
    expect(sent('idempotency-key')).toEqual(['mine-1']);
    expect(result.idempotencyKey).toBe('mine-1');
  });

  it('let idempotencyKey and requestId win over the same headers', async () => {
    answer();
    const result = await createCampaign(
      testClient({ headers: { 'x-request-id': 'client-id' } }),
      { name: 'Q4' },
      { idempotencyKey: 'option-1', requestId: 'option-id', headers: { 'IDEMPOTENCY-KEY': 'header-1' } },
    );
    expect(sent('idempotency-key')).toEqual(['option-1']);
    expect(sent('x-request-id')).toEqual(['option-id']);
    expect(result.idempotencyKey).toBe('option-1');
  });

  it('refuse a blank Idempotency-Key header as they refuse a blank idempotencyKey', async () => {
    answer();
    const call = createCampaign(testClient(), { name: 'Q4' }, { headers: { 'idempotency-key': ' ' } });
    await expect(call).rejects.toThrow(OcsError);
    expect(seen).toHaveLength(0);
  });

  it('leave an Idempotency-Key header on an operation that declares none as sent, never retried', async () => {
    server.use(http.post(`${baseUrl}/accounts/connect-link`, () => HttpResponse.json({}, { status: 503 })));
    const call = createAccountConnectLink(testClient(), { platform: 'email' }, { headers: { 'Idempotency-Key': 'k' } });
    await expect(call).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(sent('idempotency-key')).toEqual(['k']);
  });

  it.each([
    ['a call header', { headers: { 'X-Note': 'a\r\nX-Injected: 1' } }],
    ['requestId', { requestId: 'req\n1' }],
    ['idempotencyKey', { idempotencyKey: 'key\n1' }],
  ])('refuse a value HTTP cannot carry (%s) with an OcsError, before sending', async (_name, options) => {
    answer();
    const call = createCampaign(testClient(), { name: 'Q4' }, options);
    await expect(call).rejects.toThrow(OcsError);
    await expect(call).rejects.toThrow(/Invalid header/);
    expect(seen).toHaveLength(0);
  });

  // fetch refuses a code unit above 0xFF with a TypeError (not a ByteString), which the
  // transport took for a lost connection: retried with backoff, then OcsConnectionError.
  it.each([
    ['requestId', { requestId: 'job✓42' }, 'x-request-id'],
    ['requestId', { requestId: 'a\0b' }, 'x-request-id'],
    ['requestId', { requestId: '  ' }, 'x-request-id'],
    // Was sent as no request ID at all, though a blank one throws.
    ['requestId', { requestId: '' }, 'x-request-id'],
    // Headers takes other control characters; undici refuses them when sending (found by a review).
    ['requestId', { requestId: 'a\x01b' }, 'x-request-id'],
    ['requestId', { requestId: 'a\x7fb' }, 'x-request-id'],
    ['idempotencyKey', { idempotencyKey: 'clé✓' }, 'idempotency-key'],
    ['idempotencyKey', { idempotencyKey: '🔑' }, 'idempotency-key'],
  ])(
    'refuse a %s HTTP cannot carry (%o) at once, with or without call headers, with the same OcsError',
    async (_name, options, header) => {
      answer();
      const messages: string[] = [];
      for (const headers of [undefined, { 'X-Call': '1' }]) {
        const started = Date.now();
        const error = await createCampaign(testClient(), { name: 'Q4' }, { ...options, headers }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(OcsError);
        expect(error).not.toBeInstanceOf(OcsConnectionError);
        expect(Date.now() - started).toBeLessThan(200); // no backoff: nothing was retried
        messages.push((error as Error).message);
      }
      expect(messages[0]).toBe(`Invalid header: ${header}`);
      expect(messages[1]).toBe(messages[0]);
      expect(seen).toHaveLength(0);
    },
  );

  it('send Latin-1 values as Headers does (é is 0xE9)', async () => {
    answer();
    await createCampaign(testClient(), { name: 'Q4' }, { requestId: 'café', idempotencyKey: 'clé-1' });
    expect(seen).toHaveLength(1);
  });

  it('refuse a client header HTTP cannot carry with an OcsError, at createClient', () => {
    expect(() => testClient({ headers: { 'X-Note': 'a\nb' } })).toThrow(OcsError);
    // Headers takes a control character other than NUL, CR or LF; undici would refuse it at
    // every request, as a lost connection.
    expect(() => testClient({ headers: { 'X-Note': 'a\x01b' } })).toThrow('Invalid header: X-Note');
    expect(() => testClient({ headers: { 'X-Empty': '' } })).not.toThrow();
  });

  it('refuse a call header with a control character at once, never retried', async () => {
    answer();
    const error = await getCampaign(
      testClient(),
      { campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14' },
      { headers: { 'X-Note': 'a\x1fb' } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsError);
    expect(error).not.toBeInstanceOf(OcsConnectionError);
    expect((error as Error).message).toBe('Invalid header: X-Note');
    expect(seen).toHaveLength(0);
  });
});
