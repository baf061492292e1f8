/**
 * The standalone mock's journal keeps a request's header lines as Node received them and
 * lists them only when the entry is first read (journal.ts): what it shows must be what the
 * request's `Headers` listed on arrival (lower-case names in order, lines of one name joined,
 * credentials redacted), and an erased lead's values must leave those headers as they leave
 * every other part of an entry.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redactedHeaders } from '../src/core/journal/redact.ts';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 6 });
});
afterAll(() => server?.close());

/** One request over node:http, which sends an array value as one header line per item. */
function send(path: string, method: string, headers: OutgoingHttpHeaders, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method, headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

it('lists the request headers as Headers would have on arrival: joined lines, credentials redacted', async () => {
  const headers = {
    Authorization: `Bearer ${server.apiKey}`,
    Cookie: ['session=abc', 'theme=dark'],
    'X-Trace': ['one', 'two'],
    'X-Padded': '  spaced value\t',
    'User-Agent': 'journal-test/1',
  };
  expect(await send('/campaigns?limit=2', 'GET', headers)).toBe(200);
  const entry = server.requests.last('listCampaigns');
  // What the journal showed before it kept lines: the request's own Headers, redacted at once.
  const expected = redactedHeaders(
    new Headers([
      ['Host', new URL(server.url).host],
      ['Connection', 'close'],
      ['Authorization', headers.Authorization],
      ['Cookie', 'session=abc'],
      ['Cookie', 'theme=dark'],
      ['X-Trace', 'one'],
      ['X-Trace', 'two'],
      ['X-Padded', 'spaced value'],
      ['User-Agent', 'journal-test/1'],
    ]),
  );
  expect(entry?.headers).toEqual(expected);
  expect(Object.keys(entry?.headers ?? {})).toEqual(Object.keys(expected));
  expect(entry?.headers).toMatchObject({
    authorization: 'Bearer [redacted]',
    cookie: '[redacted]',
    'x-trace': 'one, two',
    'x-padded': 'spaced value',
  });
  expect(entry?.query).toEqual({ limit: '2' });
  // The same entry, read again and through the control route.
  expect(server.requests.last('listCampaigns')).toBe(entry);
  const origin = server.url.replace(/\/v1$/, '');
  const listed = (await (await fetch(`${origin}/__ocs-mock/requests?operation=listCampaigns`)).json()) as {
    requests: Array<{ headers: Record<string, string> }>;
  };
  expect(listed.requests.at(-1)?.headers).toEqual(expected);
  expect(JSON.stringify(listed)).not.toContain(server.apiKey);
});

it("an erased lead's values leave the headers of entries never read before the erasure", async () => {
  const tag = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
  const email = `zq${tag}@journal-headers.example`;
  const campaignId = server.data.campaigns[0]?.id;
  const auth = { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' };
  expect(await send('/leads', 'POST', { ...auth, 'X-Lead': email }, { campaign_id: campaignId, email })).toBe(201);
  const created = server.requests.last('createLead');
  const leadId = (created?.response?.body as { lead: { id: string } }).lead.id;
  expect(await send(`/leads/${leadId}`, 'GET', { ...auth, 'X-Lead': email })).toBe(200);
  expect(await send(`/leads/${leadId}`, 'DELETE', auth)).toBe(200);
  const text = JSON.stringify(server.requests.all());
  expect(text).not.toContain(email);
  expect(server.requests.of('getLead').at(-1)?.headers['x-lead']).toBe('[erased]');
});

it("an erased lead's values leave the header lines of an entry still in flight at the erasure", async () => {
  const tag = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
  const email = `zq${tag}@journal-headers.example`;
  const campaignId = server.data.campaigns[0]?.id;
  const auth = { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' };
  expect(await send('/leads', 'POST', auth, { campaign_id: campaignId, email })).toBe(201);
  const leadId = (server.requests.last('createLead')?.response?.body as { lead: { id: string } }).lead.id;
  // A slow list carrying the email in a header line and its query, under way at the DELETE.
  server.scenarios.latency(400, { operations: ['listLeads'] });
  try {
    const slow = send(`/leads?email=${encodeURIComponent(email)}`, 'GET', { ...auth, 'X-Lead': [email, 'again'] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await send(`/leads/${leadId}`, 'DELETE', auth)).toBe(200);
    expect(JSON.stringify(server.requests.all()).toLowerCase()).not.toContain(email);
    await slow;
  } finally {
    server.scenarios.latency(0);
  }
  expect(JSON.stringify(server.requests.all()).toLowerCase()).not.toContain(email);
  expect(server.requests.last('listLeads')?.headers['x-lead']).toBe('[erased], again');
});
