/**
 * Store contract for the engine's schedule (decision 0002, "Due times"): each enrolment's
 * lower bound of its next due time, read by `listDue`, `earliestDueAfter` and `pagesByBound`
 * (the queue's order), written by `setDue` only where the mark is still the one read, and made
 * not known again by a change that may bring steps earlier. Same assertions on memory, PGlite and PostgreSQL.
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { q4Sequence } from '../support/activity.ts';
import { enrolmentRecord, insertCampaign, leadRecord } from '../support/lead-fixtures.ts';

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 9)).toISOString();

async function campaignWithLeads(store: Store, count: number) {
  const ownerId = crypto.randomUUID();
  const org = await createOrganization(store, {
    name: 'Schedule Org',
    members: [{ id: ownerId, email: 'owner@example.com', name: 'Owner', role: 'owner' }],
  });
  const campaign = await insertCampaign(store, org.id, ownerId, { sequence: q4Sequence(), sequence_version: 1 });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const lead = leadRecord(org.id, { email: `lead-${i}@schedule.example` });
    await store.leads.insert(lead);
    const enrolment = enrolmentRecord(lead, campaign.id, {
      enrolled_at: new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString(),
    });
    await store.enrolments.insert(enrolment);
    ids.push(enrolment.id);
  }
  return { org, campaign, ids };
}

describeBackends('schedule store contract', (store) => {
  it('lists a new enrolment as due (its bound is not known), with mark 0', async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 2);
    const due = await store().enrolments.listDue(campaign.id, day(1));
    expect(due.map((e) => [e.id, e.due_mark])).toEqual(ids.map((id) => [id, 0]));
    expect(due[0]).toMatchObject({ campaign_id: campaign.id, lead_deleted_at: null, removed_at: null });
    expect(await store().enrolments.earliestDueAfter(campaign.id, day(1))).toBeNull();
  });

  it("lists each enrolment with its lead's updated_at (what tells the engine a lead was edited)", async () => {
    const { org, campaign } = await campaignWithLeads(store(), 1);
    const [before] = await store().enrolments.listDue(campaign.id, day(1));
    const lead = await store().leads.get(org.id, before?.lead_id ?? '');
    expect(Date.parse(before?.lead_updated_at ?? '')).toBe(Date.parse(lead?.updated_at ?? ''));
    await store().leads.update(org.id, lead?.id ?? '', { first_name: 'Edited', updated_at: day(2) });
    const [after] = await store().enrolments.listDue(campaign.id, day(1));
    expect(Date.parse(after?.lead_updated_at ?? '')).toBe(Date.parse(day(2)));
  });

  it('lists only the enrolments due by the time asked, and finds the earliest bound after it', async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 4);
    const [a, b, c, d] = ids as [string, string, string, string];
    const written = await store().enrolments.setDue([
      { id: a, due_at: day(3), mark: 0 },
      { id: b, due_at: day(5), mark: 0 },
      { id: c, due_at: null, mark: 0 },
    ]);
    expect(written).toBe(3);
    // d stays not known: due at any time.
    expect((await store().enrolments.listDue(campaign.id, day(2))).map((e) => e.id)).toEqual([d]);
    expect((await store().enrolments.listDue(campaign.id, day(3))).map((e) => e.id)).toEqual([a, d]);
    expect((await store().enrolments.listDue(campaign.id, day(9))).map((e) => e.id)).toEqual([a, b, d]);
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(2))) ?? '')).toBe(Date.parse(day(3)));
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(3))) ?? '')).toBe(Date.parse(day(5)));
    expect(await store().enrolments.earliestDueAfter(campaign.id, day(5))).toBeNull();
    const [read] = await store().enrolments.listDue(campaign.id, day(3));
    expect(read?.due_mark).toBe(1);
  });

  it('writes a bound only where the mark is still the one read, and moves the mark on', async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 1);
    const [id] = ids as [string];
    expect(await store().enrolments.setDue([{ id, due_at: day(4), mark: 0 }])).toBe(1);
    // A second writer that read mark 0 too writes nothing.
    expect(await store().enrolments.setDue([{ id, due_at: day(9), mark: 0 }])).toBe(0);
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(1))) ?? '')).toBe(Date.parse(day(4)));
    expect(await store().enrolments.setDue([{ id, due_at: day(6), mark: 1 }])).toBe(1);
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(1))) ?? '')).toBe(Date.parse(day(6)));
  });

  it("writes a step's status and bound in one update, the bound only where the mark is still the one read", async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 1);
    const [id] = ids as [string];
    await store().enrolments.update(id, { status: 'active', variation: 'a' }, { due_at: day(4), mark: 0 });
    const [row] = await store().activity.listEnrolments(campaign.id);
    expect(row).toMatchObject({ status: 'active', variation: 'a' });
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(1))) ?? '')).toBe(Date.parse(day(4)));
    // A stale mark: the status is written, the bound is not.
    await store().enrolments.update(id, { status: 'completed' }, { due_at: null, mark: 0 });
    expect((await store().activity.listEnrolments(campaign.id))[0]?.status).toBe('completed');
    expect(Date.parse((await store().enrolments.earliestDueAfter(campaign.id, day(1))) ?? '')).toBe(Date.parse(day(4)));
  });

  it('makes every bound of a campaign not known again when its sequence is replaced or an arm promoted', async () => {
    const { org, campaign, ids } = await campaignWithLeads(store(), 2);
    const [a, b] = ids as [string, string];
    await store().enrolments.setDue([
      { id: a, due_at: day(8), mark: 0 },
      { id: b, due_at: null, mark: 0 },
    ]);
    expect(await store().enrolments.listDue(campaign.id, day(2))).toEqual([]);
    const saved = await store().campaigns.replaceSequence(org.id, campaign.id, q4Sequence(), 1, day(2));
    expect(saved.outcome).toBe('saved');
    const due = await store().enrolments.listDue(campaign.id, day(2));
    expect(due.map((e) => [e.id, e.due_mark])).toEqual([
      [a, 2],
      [b, 2],
    ]);
    // What was worked out before the change (mark 1) is not written over it.
    expect(await store().enrolments.setDue([{ id: a, due_at: day(8), mark: 1 }])).toBe(0);

    await store().enrolments.setDue(due.map((e) => ({ id: e.id, due_at: day(8), mark: e.due_mark })));
    await store().campaigns.update(org.id, campaign.id, { name: 'Renamed' });
    expect(await store().enrolments.listDue(campaign.id, day(2))).toEqual([]);
    await store().campaigns.update(org.id, campaign.id, { ab_winner: 'b' });
    expect((await store().enrolments.listDue(campaign.id, day(2))).map((e) => e.id)).toEqual([a, b]);
  });

  it('gives the enrolments with a bound in its order (not known first, ties by ID), a page at a time', async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 6);
    const [a, b, c, d, e, f] = ids as [string, string, string, string, string, string];
    await store().enrolments.setDue([
      { id: a, due_at: day(5), mark: 0 },
      { id: b, due_at: day(3), mark: 0 },
      { id: c, due_at: null, mark: 0 },
      { id: d, due_at: day(5), mark: 0 },
      { id: e, due_at: day(3), mark: 0 },
    ]);
    // f stays not known (the epoch); c has nothing pending and is never listed.
    const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const expected = [f, ...[b, e].sort(byId), ...[a, d].sort(byId)];
    // Pages come through a cursor on SQL: read inside a transaction.
    const read = (pageSize: number) =>
      store().transaction(async (tx) => {
        const pages: Array<Array<{ id: string; due_at: string }>> = [];
        for await (const page of tx.enrolments.pagesByBound(campaign.id, pageSize)) pages.push(page);
        return pages;
      });
    const [all, ...none] = await read(10);
    expect(none).toEqual([]);
    expect(all?.map((row) => row.id)).toEqual(expected);
    expect(all?.map((row) => Date.parse(row.due_at))).toEqual([0, ...[3, 3, 5, 5].map((n) => Date.parse(day(n)))]);
    expect(all?.[1]).toMatchObject({ campaign_id: campaign.id, lead_deleted_at: null, removed_at: null });
    // Pages of two, through the ties; the last one short.
    const pages = await read(2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((row) => row.id)).toEqual(expected);
  });

  it('reads the events of the sequence leads asked for, oldest first', async () => {
    const { campaign, ids } = await campaignWithLeads(store(), 3);
    const enrolments = await store().activity.listEnrolments(campaign.id);
    const event = (index: number, occurredAt: string) => {
      const e = enrolments[index];
      if (!e) throw new Error('no enrolment');
      return store().activity.insert({
        id: crypto.randomUUID(),
        organization_id: e.organization_id,
        campaign_id: campaign.id,
        enrolment_id: e.id,
        lead_id: e.lead_id,
        variation: 'a',
        step_id: null,
        account_id: null,
        channel: 'email',
        kind: 'email_opened',
        occurred_at: occurredAt,
        data: {},
      });
    };
    await event(0, day(4));
    await event(1, day(2));
    await event(2, day(3));
    await event(0, day(1));
    const read = await store().activity.listForEnrolments([ids[0] as string, ids[1] as string]);
    expect(read.map((e) => [e.enrolment_id, Date.parse(e.occurred_at)])).toEqual([
      [ids[0], Date.parse(day(1))],
      [ids[1], Date.parse(day(2))],
      [ids[0], Date.parse(day(4))],
    ]);
    expect(await store().activity.listForEnrolments([])).toEqual([]);
  });
});
