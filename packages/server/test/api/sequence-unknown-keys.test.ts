/**
 * A sequence in a request names only the keys the document gives it (`SequenceInput`): a
 * misspelled `variaton_b` or `__proto__` answers `400 VALIDATION_ERROR` naming the key,
 * instead of being kept and ignored (a caller who thought they set up A/B testing had not).
 * Sequences stored before (legacy campaigns) may still hold such keys and are answered as
 * stored: only what a request sends is refused.
 */
import { expect, it } from 'vitest';
import type { Sequence } from '../../src/store/records.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence, q4Sequence } from '../support/campaign-setup.ts';
import { storeLegacySequence } from '../support/legacy-sequence.ts';

interface Failure {
  error: string;
  message: string;
  details: { errors: Array<{ field: string; type: string; message: string }> };
}

const issuesOf = (answer: { body: Failure }) => answer.body.details.errors.map((e) => `${e.field} ${e.type}`);

describeBackends('unknown keys in a sequence', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store());
  };
  const campaignCount = async () => (await api.call<{ total: number }>('GET', '/v1/campaigns')).body.total;
  const stored = async (id: string) => (await store().campaigns.get(api.organizationId, id))?.sequence;

  it('refuses a misspelled variation_b on create, naming it, and creates nothing', async () => {
    await setup();
    const { variation_a, variation_b } = q4Sequence();
    const answer = await api.call<Failure>('POST', '/v1/campaigns', {
      body: { name: 'Q4 Founders', sequence: { variation_a, variaton_b: variation_b } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_ERROR');
    expect(answer.body.details.errors).toEqual([
      { field: 'body.sequence.variaton_b', message: 'is not a known field', type: 'additional_properties' },
    ]);
    expect(answer.body.message).toBe('Request validation failed: body.sequence.variaton_b is not a known field.');
    expect(await campaignCount()).toBe(0);
  });

  it('refuses an unknown key in a step and in a conditional step’s branches, at any depth', async () => {
    await setup();
    const sequence = q4Sequence() as unknown as {
      variation_a: Array<Record<string, unknown> & { branches?: Record<string, unknown[]> }>;
    };
    sequence.variation_a[0] = { ...sequence.variation_a[0], subjet: 'typo' };
    const conditional = sequence.variation_a[3] as { branches: Record<string, Array<Record<string, unknown>>> };
    conditional.branches.maybe = [];
    conditional.branches.yes = [{ ...conditional.branches.yes?.[0], delai: 2 }];
    const answer = await api.call<Failure>('POST', '/v1/campaigns', { body: { name: 'Q4 Founders', sequence } });
    expect(answer.status).toBe(400);
    expect(issuesOf(answer).sort()).toEqual([
      'body.sequence.variation_a[0].subjet additional_properties',
      'body.sequence.variation_a[3].branches.maybe additional_properties',
      'body.sequence.variation_a[3].branches.yes[0].delai additional_properties',
    ]);
    expect(await campaignCount()).toBe(0);
  });

  it('refuses __proto__ sent as a JSON key of the sequence or of a step on create', async () => {
    await setup();
    // JSON.parse makes `__proto__` an own key (it does not set the prototype): it must be
    // refused like any other unknown key, not stored.
    const step = '{"id":1,"type":"email","subject":"Hi","content":"Hello"}';
    for (const [sequence, field] of [
      [`{"variation_a":[${step}],"__proto__":{"variation_b":[]}}`, 'body.sequence.__proto__'],
      [
        `{"variation_a":[{"id":1,"type":"view_profile","__proto__":{"delay":1}}]}`,
        'body.sequence.variation_a[0].__proto__',
      ],
    ]) {
      const answer = await api.call<Failure>('POST', '/v1/campaigns', {
        rawBody: `{"name":"Q4 Founders","sequence":${sequence}}`,
      });
      expect(answer.status, sequence).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(issuesOf(answer)).toEqual([`${field} additional_properties`]);
    }
    expect(await campaignCount()).toBe(0);
  });

  it('refuses a misspelled variation_b on replace and keeps the stored sequence', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    const { variation_a, variation_b } = q4Sequence();
    const answer = await api.call<Failure>('PUT', `/v1/campaigns/${id}/sequence`, {
      body: { sequence: { variation_a, variaton_b: variation_b } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors).toEqual([
      { field: 'body.sequence.variaton_b', message: 'is not a known field', type: 'additional_properties' },
    ]);
    expect(await stored(id)).toEqual(emailSequence());
  });

  it('refuses __proto__ sent as a JSON key on replace and keeps the stored sequence', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    const answer = await api.call<Failure>('PUT', `/v1/campaigns/${id}/sequence`, {
      rawBody: '{"sequence":{"variation_a":[{"id":1,"type":"view_profile"}],"__proto__":{"variation_b":[]}}}',
    });
    expect(answer.status).toBe(400);
    expect(issuesOf(answer)).toEqual(['body.sequence.__proto__ additional_properties']);
    expect(await stored(id)).toEqual(emailSequence());
  });

  it('answers a legacy sequence with unknown keys as stored, and takes it back only without them', async () => {
    await setup();
    const id = await createCampaign(api);
    const legacy = {
      variation_a: [{ id: 1, type: 'email', subject: 'A', content: 'a', tracking: 'legacy' }],
      variaton_b: [{ id: 2, type: 'email', subject: 'B', content: 'b' }],
    } as unknown as Sequence;
    // Stored before unknown keys were refused: as an old row would hold it.
    await storeLegacySequence(store(), api.organizationId, id, legacy);
    // The answers are checked against the document (`Sequence` still describes what is stored).
    const read = await api.call<{ campaign: { sequence: unknown } }>('GET', `/v1/campaigns/${id}`);
    expect(read.body.campaign.sequence).toEqual(legacy);
    expect(
      (await api.call('PATCH', `/v1/campaigns/${id}/sequence/steps/1`, { body: { updates: { delay: 1 } } })).status,
    ).toBe(200);

    const sentBack = await api.call<Failure>('PUT', `/v1/campaigns/${id}/sequence`, {
      body: { sequence: read.body.campaign.sequence },
    });
    expect(sentBack.status).toBe(400);
    expect(issuesOf(sentBack).sort()).toEqual([
      'body.sequence.variation_a[0].tracking additional_properties',
      'body.sequence.variaton_b additional_properties',
    ]);
    const clean = { variation_a: [{ id: 1, type: 'email', subject: 'A', content: 'a', delay: 1 }] };
    const fixed = await api.call<{ sequence: unknown }>('PUT', `/v1/campaigns/${id}/sequence`, {
      body: { sequence: clean },
    });
    expect(fixed.status).toBe(200);
    expect(await stored(id)).toEqual(clean);
  });
});
