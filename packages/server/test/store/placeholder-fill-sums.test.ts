/**
 * `ActivityStore.placeholderFillSums` (what the personalization report counts from) against
 * `placeholderFillSumsOf`, the same sums worked out from the rows, on every store: simulated
 * campaigns read with windows before, inside and after the activity, and a campaign written
 * for the order that decides a field's `source` (leads by enrolment, messages by kind, fills
 * as listed), ties in time, a name twice in one message, and leads that do not count.
 */
import { expect, it } from 'vitest';
import { factRules, messageKindsCounted, placeholderFillSumsOf } from '../../src/domain/analytics/index.ts';
import type { PlaceholderFill } from '../../src/store/records.ts';
import type { PlaceholderFillSums } from '../../src/store/types.ts';
import { createTestApi } from '../support/api.ts';
import { activityBuilder } from '../support/activity.ts';
import { describeBackends } from '../support/backends.ts';
import { campaignRows, reportWindows, storedCampaign } from '../support/stored-campaign.ts';

/** In one order, so that two sums compare as sets of rows. */
function sorted(sums: PlaceholderFillSums): PlaceholderFillSums {
  return { messages: sums.messages, fields: [...sums.fields].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

const fill = (name: string, source: PlaceholderFill['source'], how: PlaceholderFill['fill']): PlaceholderFill => ({
  name,
  source,
  fill: how,
});

it('counts by kind the messages that are facts of that one kind', () => {
  for (const kind of messageKindsCounted) expect(factRules[kind].kinds).toEqual([kind]);
});

describeBackends('ActivityStore.placeholderFillSums', (store) => {
  it('sums what placeholderFillSumsOf works out from the rows, for every window', async () => {
    for (const seed of [1, 2]) {
      const { campaignId, data } = await storedCampaign(store(), seed);
      for (const from of reportWindows) {
        const fromStore = await store().activity.placeholderFillSums(campaignId, { from, kinds: messageKindsCounted });
        expect(sorted(fromStore), `seed ${seed}, from ${from}`).toEqual(sorted(placeholderFillSumsOf(data, from)));
      }
      const all = await store().activity.placeholderFillSums(campaignId, { from: null, kinds: messageKindsCounted });
      // Not empty: the simulated messages fill lead fields and an AI field, in every way.
      expect(all.messages).toBeGreaterThan(100);
      expect(new Set(all.fields.map((field) => field.source))).toEqual(new Set(['lead', 'ai']));
      for (const how of ['filled', 'fallback', 'empty'] as const)
        expect(
          all.fields.some((field) => field[how] > 0),
          how,
        ).toBe(true);
    }
  }, 120_000);

  it('takes a field’s source from its first fill in the counting order, each name once per message', async () => {
    const api = await createTestApi(store());
    const b = activityBuilder(store(), api.organizationId, api.ownerId);
    const campaign = await b.campaign();
    const enrol = async (enrolledAt: string, more: { removed?: boolean } = {}) =>
      b.enrol(campaign, {
        lead: await b.lead(),
        enrolled_at: enrolledAt,
        removed_at: more.removed ? '2026-11-20T00:00:00.000Z' : null,
      });
    // Enrolled second, written first: its fills come after the first lead's.
    const second = await enrol('2026-11-02T00:00:00.000Z');
    const first = await enrol('2026-11-01T00:00:00.000Z');
    const removed = await enrol('2026-10-01T00:00:00.000Z', { removed: true });
    const message = (placeholders: PlaceholderFill[]) => ({ data: { placeholders } });

    await b.event(
      second,
      'email_sent',
      '2026-11-03T09:00:00.000Z',
      message([fill('icebreaker', 'lead', 'filled'), fill('title', 'ai', 'filled')]),
    );
    // The first lead's connection request is older than its email, but emails come first.
    await b.event(
      first,
      'connection_requested',
      '2026-11-02T09:00:00.000Z',
      message([fill('icebreaker', 'lead', 'empty'), fill('title', 'lead', 'empty')]),
    );
    await b.event(
      first,
      'email_sent',
      '2026-11-04T09:00:00.000Z',
      message([
        fill('icebreaker', 'ai', 'fallback'),
        fill('company', 'lead', 'filled'),
        fill('icebreaker', 'lead', 'empty'),
      ]),
    );
    // Not the first email of the lead: not a message counted.
    await b.event(first, 'email_sent', '2026-11-05T09:00:00.000Z', message([fill('unseen', 'lead', 'filled')]));
    // Two LinkedIn messages at the same instant: the smaller ID is the first.
    const ids = [crypto.randomUUID(), crypto.randomUUID()].sort();
    await b.event(second, 'linkedin_message_sent', '2026-11-06T09:00:00.000Z', {
      id: ids[1],
      ...message([fill('tie', 'lead', 'empty')]),
    });
    await b.event(second, 'linkedin_message_sent', '2026-11-06T09:00:00.000Z', {
      id: ids[0],
      ...message([fill('tie', 'ai', 'filled')]),
    });
    // A message without well-formed fills still counts (a fill that is no object or has no name
    // counts nowhere, an unknown way of filling only as a use, a missing source is none), and
    // so does one whose fills are no list; a lead removed from the campaign does not.
    const malformed = [
      { source: 'lead', fill: 'filled' },
      'text',
      null,
      { name: 'odd', source: 'lead', fill: 'weird' },
      { name: 'sourceless', fill: 'filled' },
    ];
    await b.event(second, 'connection_requested', '2026-11-04T09:00:00.000Z', {
      data: { placeholders: malformed as unknown as PlaceholderFill[] },
    });
    await b.event(first, 'linkedin_message_sent', '2026-11-06T10:00:00.000Z', {
      data: { placeholders: { not: 'a list' } as unknown as PlaceholderFill[] },
    });
    await b.event(removed, 'email_sent', '2026-11-03T09:00:00.000Z', message([fill('company', 'ai', 'empty')]));
    // Not a message.
    await b.event(first, 'profile_viewed', '2026-11-02T08:00:00.000Z', message([fill('viewed', 'lead', 'filled')]));

    const sums = await store().activity.placeholderFillSums(campaign.id, { from: null, kinds: messageKindsCounted });
    expect(sorted(sums)).toEqual({
      messages: 6,
      fields: [
        { name: 'company', source: 'lead', uses: 1, filled: 1, fallback: 0, empty: 0 },
        { name: 'icebreaker', source: 'ai', uses: 3, filled: 1, fallback: 1, empty: 1 },
        { name: 'odd', source: 'lead', uses: 1, filled: 0, fallback: 0, empty: 0 },
        { name: 'sourceless', source: null, uses: 1, filled: 1, fallback: 0, empty: 0 },
        { name: 'tie', source: 'ai', uses: 1, filled: 1, fallback: 0, empty: 0 },
        // The first lead's request comes before the second lead's email, though emails come first.
        { name: 'title', source: 'lead', uses: 2, filled: 1, fallback: 0, empty: 1 },
      ],
    });
    expect(sorted(placeholderFillSumsOf(await campaignRows(store(), campaign.id), null))).toEqual(sorted(sums));

    // From the 4th on: the first lead's email and LinkedIn message, the second's LinkedIn message and request.
    const later = await store().activity.placeholderFillSums(campaign.id, {
      from: '2026-11-04T09:00:00.000Z',
      kinds: messageKindsCounted,
    });
    expect(sorted(later)).toEqual({
      messages: 4,
      fields: [
        { name: 'company', source: 'lead', uses: 1, filled: 1, fallback: 0, empty: 0 },
        { name: 'icebreaker', source: 'ai', uses: 1, filled: 0, fallback: 1, empty: 0 },
        { name: 'odd', source: 'lead', uses: 1, filled: 0, fallback: 0, empty: 0 },
        { name: 'sourceless', source: null, uses: 1, filled: 1, fallback: 0, empty: 0 },
        { name: 'tie', source: 'ai', uses: 1, filled: 1, fallback: 0, empty: 0 },
      ],
    });
  });

  it('reads each kind once, however often the list names it', async () => {
    const { campaignId } = await storedCampaign(store(), 5);
    const once = await store().activity.placeholderFillSums(campaignId, { from: null, kinds: ['email_sent'] });
    const twice = await store().activity.placeholderFillSums(campaignId, {
      from: null,
      kinds: ['email_sent', 'email_sent'],
    });
    expect(once.messages).toBeGreaterThan(0);
    expect(sorted(twice)).toEqual(sorted(once));
  }, 60_000);

  it('an unknown campaign has nothing to sum', async () => {
    expect(
      await store().activity.placeholderFillSums(crypto.randomUUID(), { from: null, kinds: messageKindsCounted }),
    ).toEqual({ messages: 0, fields: [] });
  });
});
