/**
 * `mock.data` is what the API answers: the seeded campaigns (read back from the list, one
 * request) equal `GET /campaigns/{id}` of each, in the order the seed created them.
 */
import { expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';

it('mock.data.campaigns are GET /campaigns/{id} of each, in creation order', async () => {
  const mock = await createOcsMock({ seed: 3 });
  const names = ['first', 'second', 'third'];
  const custom = await createOcsMock({ fixtures: { campaigns: names.map((name) => ({ name })) } });
  expect(custom.data.campaigns.map((campaign) => campaign.name)).toEqual(names);
  for (const each of [mock, custom]) {
    expect(each.data.campaigns.length).toBeGreaterThan(0);
    for (const campaign of each.data.campaigns) {
      const answer = await each.fetch(
        new Request(`${each.baseUrl}/campaigns/${campaign.id}`, {
          headers: { Authorization: `Bearer ${each.apiKey}` },
        }),
      );
      expect(((await answer.json()) as { campaign: unknown }).campaign).toEqual(campaign);
    }
  }
});
