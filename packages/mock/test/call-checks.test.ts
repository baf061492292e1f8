/**
 * The mock's methods refuse what they cannot honour, naming it: `use()` anything but MSW
 * handlers (it used to answer every later request with a 500), `mock.fetch` a request no
 * handler answers (it used to answer any URL, so a client with the wrong base URL passed),
 * `createApiKey` a misspelt or unknown scope (a misspelt one gave every scope), the sandbox
 * operations and `scenarios.rateLimit` called without their options, and `webhooks.trigger` a
 * channel the service has not.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';

const mock = await createOcsMock();
const auth = { Authorization: `Bearer ${mock.apiKey}` };

describe('use()', () => {
  it.each<[string, unknown]>([
    ['an object', {}],
    ['a resolver function', () => HttpResponse.json({})],
    ['a list of handlers', [http.get('https://x.test', () => HttpResponse.json({}))]],
  ])('refuses %s, and keeps answering', async (_, handler) => {
    expect(() => mock.use(handler as never)).toThrow(
      /use\(\) takes MSW request handlers \(http\.get\(\.\.\.\), mock\.http\.getCampaign\(\.\.\.\)\); argument 1 is/,
    );
    const response = await mock.fetch(`${mock.baseUrl}/campaigns`, { headers: auth });
    expect(response.status).toBe(200);
  });
});

describe('mock.fetch', () => {
  it('takes what fetch takes: a Request, or a URL with its init', async () => {
    expect((await mock.fetch(new Request(`${mock.baseUrl}/campaigns`, { headers: auth }))).status).toBe(200);
    expect((await mock.fetch(new URL(`${mock.baseUrl}/campaigns`), { headers: auth })).status).toBe(200);
    expect((await mock.fetch(`${new URL(mock.baseUrl).origin}/openapi.json`)).status).toBe(200);
  });

  it('rejects as fetch does what no handler answers: another origin, another path, POST to the document', async () => {
    const recorded = mock.requests.all().length;
    const elsewhere = [
      new Request('https://api.example.com/v1/campaigns', { headers: auth }),
      new Request(`${new URL(mock.baseUrl).origin}/v2/campaigns`, { headers: auth }),
      new Request(`${new URL(mock.baseUrl).origin}/openapi.json`, { method: 'POST' }),
    ];
    for (const request of elsewhere) {
      const error = await mock.fetch(request).catch((caught: unknown) => caught);
      expect(error, request.url).toBeInstanceOf(TypeError);
      expect((error as TypeError).cause).toMatchObject({
        message: expect.stringMatching(/nothing answers .*: the mock answers under https:\/\/api\.ocs\.test\/v1/),
      });
    }
    // Nothing was recorded for them.
    expect(mock.requests.all()).toHaveLength(recorded);
  });

  it('behind a prefix, refuses the unprefixed path', async () => {
    const prefixed = await createOcsMock({ baseUrl: 'https://api.ocs.test/ocs/v1' });
    const headers = { Authorization: `Bearer ${prefixed.apiKey}` };
    expect((await prefixed.fetch('https://api.ocs.test/ocs/v1/campaigns', { headers })).status).toBe(200);
    await expect(prefixed.fetch('https://api.ocs.test/v1/campaigns', { headers })).rejects.toThrow(TypeError);
  });
});

describe('createApiKey', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a misspelt scopes',
      { scope: ['campaigns:read'] },
      /createApiKey has no option "scope"; it takes scopes, expiresAt/,
    ],
    [
      'scopes that are no list',
      { scopes: 'campaigns:read' },
      /createApiKey\.scopes must be a list of leads:read, .*got "campaigns:read"/,
    ],
    ['an unknown scope', { scopes: ['campaigns:read', 'campaigns:admin'] }, /got \["campaigns:admin"\]/],
    [
      'an expiry that is no time',
      { expiresAt: 'garbage' },
      /createApiKey\.expiresAt must be a Date or an ISO 8601 time/,
    ],
    ['an invalid Date', { expiresAt: new Date('x') }, /expiresAt must be a Date or an ISO 8601 time/],
  ])('refuses %s', async (_, options, message) => {
    await expect(mock.createApiKey(options as never)).rejects.toThrow(message);
  });

  it('makes the key it was asked for', async () => {
    const key = await mock.createApiKey({ scopes: ['campaigns:read'] });
    const headers = { Authorization: `Bearer ${key}` };
    expect((await mock.fetch(`${mock.baseUrl}/campaigns`, { headers })).status).toBe(200);
    expect((await mock.fetch(`${mock.baseUrl}/leads`, { headers })).status).toBe(403);
  });
});

describe('the sandbox and scenarios without their options', () => {
  it('say what each takes', async () => {
    await expect(mock.sandbox.advanceClock(undefined as never)).rejects.toThrow(
      /sandbox\.advanceClock takes an object, \{ seconds \}, \{ days \} or \{ to \}; got undefined/,
    );
    await expect(mock.sandbox.reply(undefined as never)).rejects.toThrow(/sandbox\.reply takes an object/);
    await expect(mock.sandbox.engage('x' as never)).rejects.toThrow(/sandbox\.engage takes an object.*got "x"/);
    expect(() => mock.scenarios.rateLimit(undefined as never)).toThrow(/rateLimit needs a budget/);
  });
});

describe('webhooks.trigger', () => {
  const secret = 'whsec_trigger_checks_0123456789';

  it('refuses a channel the service has not, and a misspelt option', async () => {
    await expect(mock.webhooks.trigger({ secret, channel: 'fax' as never })).rejects.toThrow(
      /webhooks\.trigger\.channel must be 'email' or 'linkedin', got "fax"/,
    );
    await expect(mock.webhooks.trigger({ secret, lead: 'x' } as never)).rejects.toThrow(
      /webhooks\.trigger has no option "lead"/,
    );
  });

  it('says when the lead does not exist, rather than that it is enrolled nowhere', async () => {
    await expect(mock.webhooks.trigger({ secret, leadId: 'nope' })).rejects.toThrow(/the mock has no lead nope/);
  });

  it('still lets overrides set any channel, to test a receiver', async () => {
    const { event } = await mock.webhooks.trigger({ secret, overrides: { channel: 'fax' as never } });
    expect(event.channel).toBe('fax');
  });
});
