/**
 * The journal keeps no webhook signing secret in a body, whatever holds it: a `secret` that is
 * not a string (an array, an object: refused 400), a key naming a secret in another spelling
 * (`Secret`, `signing_secret`), a `whsec_` value in any string (a URL, an error message that
 * quotes it) or key, a body that is one JSON string. `null` and booleans under such keys stay.
 */
import { expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';

const mock = await createOcsMock({ seed: 5 });
const campaign = mock.data.campaigns[2];
if (!campaign) throw new Error('seeded data missing');
const secret = 'whsec_JOURNALSECRET_0123456789abcdef';
const webhooks = `${mock.baseUrl}/campaigns/${campaign.id}/webhooks`;
const send = (body: string, method = 'POST') =>
  mock.fetch(webhooks, {
    method,
    headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
    body: method === 'GET' ? undefined : body,
  });
const url = 'https://hooks.example.com/journal';

it('redacts a secret whatever holds it, and keeps what holds none', async () => {
  const sent: Array<[body: unknown, recorded: unknown]> = [
    [
      { webhook_url: url, secret: [secret] },
      { webhook_url: url, secret: '[redacted]' },
    ],
    [
      { webhook_url: url, secret: { value: secret } },
      { webhook_url: url, secret: '[redacted]' },
    ],
    [
      { webhook_url: url, secret: 4242 },
      { webhook_url: url, secret: '[redacted]' },
    ],
    [
      { webhook_url: url, Secret: secret },
      { webhook_url: url, Secret: '[redacted]' },
    ],
    [
      { webhook_url: url, signing_secret: secret },
      { webhook_url: url, signing_secret: '[redacted]' },
    ],
    [{ webhook_url: `${url}?token=${secret}` }, { webhook_url: '[redacted]' }],
    [
      { webhook_url: url, [secret]: 1 },
      { webhook_url: url, '[redacted]': '[redacted]' },
    ],
    [[{ webhook_url: url, note: `see ${secret}` }], [{ webhook_url: url, note: '[redacted]' }]],
    [secret, '[redacted]'],
    ['a plain note', 'a plain note'],
  ];
  // Refused (400), but for the URL carrying a token, which is a valid webhook URL.
  for (const [body] of sent) expect((await send(JSON.stringify(body))).status, JSON.stringify(body)).toBeLessThan(500);
  expect(mock.requests.of('createWebhook').map((entry) => entry.body)).toEqual(sent.map(([, recorded]) => recorded));

  // A URL carrying the secret as credentials, refused.
  const quoted = await send(JSON.stringify({ webhook_url: `https://u:${secret}@hooks.example.com/a` }));
  expect(quoted.status).toBe(400);
  expect(mock.requests.last('createWebhook')?.body).toEqual({ webhook_url: '[redacted]' });
  expect(JSON.stringify(mock.requests.all())).not.toContain('JOURNALSECRET');

  // `secret: null` asks for a generated secret; a webhook's answer says `has_secret: true`.
  const generated = { webhook_url: url, secret: null, replace: true };
  expect((await send(JSON.stringify(generated))).status).toBeLessThan(300);
  expect(mock.requests.last('createWebhook')?.body).toEqual(generated);
  expect((await send('', 'GET')).status).toBe(200);
  const listed = mock.requests.last('listWebhooks')?.response;
  expect(JSON.stringify(listed?.body)).toContain('"has_secret":true');
  expect(JSON.stringify(mock.requests.all())).not.toMatch(/whsec_/i);
});
