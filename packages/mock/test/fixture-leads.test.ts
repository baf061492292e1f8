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
  ).rejects.toThrow(/refused POST \/v1\/leads for fixtures\.leads .*body\.leads\[1\]\.email/);
  await expect(
    createOcsMock({
      fixtures: {
        leads: [{ email: 'ada@example.com' }, { email: 'grace@example.com', campaign_id: crypto.randomUUID() }],
      },
    }),
  ).rejects.toThrow(/refused POST \/v1\/leads for fixtures\.leads\[1\] .*HTTP 400/);
});

it('names the campaign fixture a refused request was for, and its leads', async () => {
  const campaigns = [{ name: 'Fine' }, { name: 'x'.repeat(10_000) }];
  await expect(createOcsMock({ fixtures: { campaigns } })).rejects.toMatchObject({
    fixture: 'fixtures.campaigns[1]',
    message: expect.stringMatching(/refused POST \/v1\/campaigns for fixtures\.campaigns\[1\] /),
  });
  const withLeads = [{ name: 'Fine' }, { name: 'Leads', leads: [{ email: 'ada@example.com' }, { email: 'nope' }] }];
  await expect(createOcsMock({ fixtures: { campaigns: withLeads } })).rejects.toMatchObject({
    fixture: 'fixtures.campaigns[1].leads',
    message: expect.stringMatching(/body\.leads\[1\]\.email/),
  });
});
