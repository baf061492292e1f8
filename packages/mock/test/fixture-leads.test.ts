/**
 * Fixture leads are created with the batch form of `POST /leads` (one request per 500 leads,
 * which keeps the mock's start short): they keep their order, a repeated email is the same
 * lead, and a lead the service refuses fails `createOcsMock` naming the item.
 */
import { expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';

it('keeps the fixture order, and a repeated email is one lead', async () => {
  const mock = await createOcsMock({
    fixtures: { leads: [{ email: 'ada@example.com' }, { email: 'grace@example.com' }, { email: 'ada@example.com' }] },
  });
  expect(mock.data.leads.map((lead) => lead.email)).toEqual(['ada@example.com', 'grace@example.com']);
});

it('fails naming the refused item: an invalid field, or a campaign that does not exist', async () => {
  await expect(
    createOcsMock({ fixtures: { leads: [{ email: 'ada@example.com' }, { email: 'not an email' }] } }),
  ).rejects.toThrow(/refused POST \/v1\/leads .*body\.leads\[1\]\.email/);
  await expect(
    createOcsMock({
      fixtures: {
        leads: [{ email: 'ada@example.com' }, { email: 'grace@example.com', campaign_id: crypto.randomUUID() }],
      },
    }),
  ).rejects.toThrow(/refused POST \/v1\/leads \(leads\[1\]\) .*HTTP 400/);
});
