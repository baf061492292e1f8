/**
 * An erased lead leaves the journal's path parameters and its paths as requested,
 * percent-encoded: a `getLead` by the lead's email (answered 404) keeps neither the email in
 * `params` nor `erase.me%40example.com` in `path`, whatever the escapes' case, with `+` as it
 * is or as `%2B`, and the values' encodings leave the other strings (a header, a query) too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcsMock, type MockServer, startMockServer } from '../src/node/index.ts';

const mock = await createOcsMock({ seed: 4 });
const headers = { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' };
const send = (path: string, init: RequestInit = {}) =>
  mock.fetch(`${mock.baseUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers as object) } });

/** Every way the lead's values were found in the journal text, case ignored. */
function leftIn(text: string, needles: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return needles.filter((needle) => lower.includes(needle.toLowerCase()));
}

describe('in process', () => {
  it("takes the erased lead's values out of path parameters and encoded paths", async () => {
    const email = 'Erase.Me+tag@example.com';
    const created = await send('/leads', {
      method: 'POST',
      body: JSON.stringify({
        campaign_id: mock.data.campaigns[0]?.id,
        email,
        first_name: 'Quintessa',
        last_name: 'Vanderbrook',
      }),
    });
    expect(created.status).toBe(201);
    const leadId = ((await created.json()) as { lead: { id: string } }).lead.id;

    const lookups = [
      `/leads/${encodeURIComponent(email)}`, // Erase.Me%2Btag%40example.com
      '/leads/erase.me%2btag%40example.com', // lower-case escapes
      '/leads/Erase.Me+tag%40example.com', // `+` unescaped
      '/leads/Quintessa%20Vanderbrook', // a name glued to an escape's hex digits
    ];
    for (const path of lookups) expect((await send(path)).status, path).toBe(404);
    // A query with `+` unescaped reads it as a space; a header carries the encoded email.
    await send(`/leads?search=${email}`);
    await send('/leads?limit=1', {
      headers: { Referer: `https://app.example.com/leads?email=${encodeURIComponent(email)}` },
    });
    const needles = [email, encodeURIComponent(email), 'Erase.Me', 'tag%40', 'Quintessa', 'Vanderbrook'];
    expect(leftIn(JSON.stringify(mock.requests.all()), needles)).toEqual(needles);

    expect((await send(`/leads/${leadId}`, { method: 'DELETE' })).status).toBe(200);

    const entries = mock.requests.of('getLead');
    expect(leftIn(JSON.stringify(mock.requests.all()), needles)).toEqual([]);
    expect(entries.map((entry) => entry.params.lead_id)).toEqual([
      '[erased]',
      '[erased]',
      '[erased]',
      '[erased] [erased]',
    ]);
    expect(entries.map((entry) => entry.path)).toEqual([
      '/v1/leads/[erased]',
      '/v1/leads/[erased]',
      '/v1/leads/[erased]',
      '/v1/leads/[erased]%20[erased]',
    ]);
    expect(mock.requests.of('listLeads')[0]?.query).toEqual({ search: '[erased]' });
    // Other requests' paths are kept as they were requested.
    expect(mock.requests.last('deleteLead')?.path).toBe(`/v1/leads/${leadId}`);
  });
});

describe('ocs-mock over HTTP', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 4 });
  });
  afterAll(() => server?.close());

  it('the control route lists no value of an erased lead looked up by its email', async () => {
    const auth = { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/leads`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ email: 'erase.me@example.com', first_name: 'Erasmus' }),
    });
    expect(created.status).toBe(201);
    const leadId = ((await created.json()) as { lead: { id: string } }).lead.id;
    expect((await fetch(`${server.url}/leads/erase.me%40example.com`, { headers: auth })).status).toBe(404);
    // No valid encoding (`%FF` alone): the parameter is kept as sent, encoded.
    expect((await fetch(`${server.url}/leads/erase.me%40example.com%FF`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${server.url}/leads/${leadId}`, { method: 'DELETE', headers: auth })).status).toBe(200);

    const origin = server.url.replace(/\/v1$/, '');
    const listed = (await (await fetch(`${origin}/__ocs-mock/requests?operation=getLead`)).json()) as {
      requests: Array<{ path: string; params: Record<string, string> }>;
    };
    expect(listed.requests.map(({ path, params }) => ({ path, params }))).toEqual([
      { path: '/v1/leads/[erased]', params: { lead_id: '[erased]' } },
      { path: '/v1/leads/[erased]%FF', params: { lead_id: '[erased]%FF' } },
    ]);
  });
});
