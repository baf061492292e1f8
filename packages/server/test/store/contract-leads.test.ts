/**
 * Contract of the lead, enrolment and sender account stores: the same assertions on memory,
 * PGlite and (with DATABASE_URL) PostgreSQL, so the backends agree on ordering, filters,
 * case-insensitive emails, uniqueness, erasure and pagination totals.
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import { UniqueViolation } from '../../src/store/errors.ts';
import type { ConnectLinkRecord, LeadRecord, SenderAccountRecord } from '../../src/store/records.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { enrolmentRecord, insertCampaign, leadRecord, personalFields } from '../support/lead-fixtures.ts';

async function organization(store: Store, name = 'Northwind Outreach') {
  const ownerId = crypto.randomUUID();
  const org = await createOrganization(store, {
    name,
    members: [{ id: ownerId, email: 'owner@northwind.example', name: 'Olivia Owner', role: 'owner' }],
  });
  return { id: org.id, ownerId };
}

/** A UUID whose first character is `first` (to control ties broken by `id`). */
const idStarting = (first: string) => `${first}${crypto.randomUUID().slice(1)}`;

function nth(leads: LeadRecord[], i: number): LeadRecord {
  const lead = leads[i];
  if (!lead) throw new Error(`no lead ${i}`);
  return lead;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describeBackends('lead store contract', (store) => {
  it('reads back every field of a lead, scoped to its organization', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const lead = leadRecord(org.id, { custom_fields: { funding_stage: 'Series B', nested: { pilots: [1, 2] } } });
    await store().leads.insert(lead);
    expect(await store().leads.get(org.id, lead.id)).toEqual(lead);
    expect(await store().leads.get(other.id, lead.id)).toBeNull();
    expect(await store().leads.getRow(other.id, lead.id)).toBeNull();
    expect(await store().leads.getMany(org.id, [lead.id, crypto.randomUUID()])).toEqual([lead]);
    expect(await store().leads.getMany(other.id, [lead.id])).toEqual([]);
  });

  it('keeps a custom field named __proto__ as a field, through every write and read', async () => {
    const org = await organization(store());
    // As a request body parses: JSON.parse makes `__proto__` an own key.
    const custom_fields = JSON.parse('{"__proto__": {"stage": "B"}, "region": "EU"}') as Record<string, unknown>;
    const lead = leadRecord(org.id, { custom_fields });
    await store().leads.insert(lead);
    for (let read = 0; read < 2; read++) {
      const stored = await store().leads.get(org.id, lead.id);
      expect(Object.getPrototypeOf(stored?.custom_fields)).toBe(Object.prototype);
      // Sorted: jsonb orders keys by length.
      const fields = Object.entries(stored?.custom_fields ?? {}).sort(([a], [b]) => a.localeCompare(b));
      expect(fields).toEqual([
        ['__proto__', { stage: 'B' }],
        ['region', 'EU'],
      ]);
    }
  });

  it('finds a live lead by email, case-insensitively, in its organization only', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const lead = leadRecord(org.id, { email: 'Maya.Patel@AcmeRobotics.com' });
    await store().leads.insert(lead);
    expect((await store().leads.findByEmail(org.id, 'maya.patel@acmerobotics.com'))?.id).toBe(lead.id);
    expect((await store().leads.findByEmail(org.id, 'MAYA.PATEL@ACMEROBOTICS.COM'))?.id).toBe(lead.id);
    expect(await store().leads.findByEmail(org.id, 'maya@acmerobotics.com')).toBeNull();
    expect(await store().leads.findByEmail(other.id, 'maya.patel@acmerobotics.com')).toBeNull();
    await store().leads.erase(org.id, lead.id, '2026-11-06T10:00:00.000Z');
    expect(await store().leads.findByEmail(org.id, 'maya.patel@acmerobotics.com')).toBeNull();
  });

  it('refuses a second live lead with the same email (any case) with UniqueViolation', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    await store().leads.insert(leadRecord(org.id, { email: 'maya.patel@acmerobotics.com' }));
    const error = await rejection(store().leads.insert(leadRecord(org.id, { email: 'MAYA.patel@acmerobotics.com' })));
    expect(error).toBeInstanceOf(UniqueViolation);
    expect((error as UniqueViolation).constraint).toBe('leads_email');
    // Another organization, and leads without an email, never conflict.
    await store().leads.insert(leadRecord(other.id, { email: 'maya.patel@acmerobotics.com' }));
    await store().leads.insert(leadRecord(org.id, { email: null }));
    await store().leads.insert(leadRecord(org.id, { email: null }));
    expect((await store().leads.list(org.id, { limit: 10, offset: 0 })).total).toBe(3);
  });

  it("folds emails as PostgreSQL's lower() does on every store: a final sigma is σ, İ is i (domain/fold-case.ts)", async () => {
    const org = await organization(store());
    await store().leads.insert(leadRecord(org.id, { email: 'ΟΔΥΣ@ithaca.example' }));
    await store().leads.insert(leadRecord(org.id, { email: 'İpek@ornek.example' }));
    // JavaScript's toLowerCase gives οδυς and i̇pek: the memory store took these for others.
    expect((await store().leads.findByEmail(org.id, 'οδυσ@ithaca.example'))?.email).toBe('ΟΔΥΣ@ithaca.example');
    expect((await store().leads.findByEmail(org.id, 'ipek@ornek.example'))?.email).toBe('İpek@ornek.example');
    const again = await rejection(store().leads.insert(leadRecord(org.id, { email: 'οδυσ@ithaca.example' })));
    expect(again).toBeInstanceOf(UniqueViolation);
    expect((await store().leads.list(org.id, { limit: 10, offset: 0, email: 'IPEK@ornek.example' })).total).toBe(1);
  });

  it('reports UniqueViolation inside a transaction, which then leaves nothing behind', async () => {
    const org = await organization(store());
    await store().leads.insert(leadRecord(org.id, { email: 'maya.patel@acmerobotics.com' }));
    const first = leadRecord(org.id, { email: 'jonas.weber@brightlane.io' });
    const error = await rejection(
      store().transaction(async (tx) => {
        await tx.leads.insert(first);
        await tx.leads.insert(leadRecord(org.id, { email: 'Maya.Patel@acmerobotics.com' }));
      }),
    );
    expect(error).toBeInstanceOf(UniqueViolation);
    expect(await store().leads.get(org.id, first.id)).toBeNull();
  });

  it('undoes only a nested transaction that fails, so its caller can catch UniqueViolation and retry inside the outer one', async () => {
    const org = await organization(store());
    await store().leads.insert(leadRecord(org.id, { email: 'maya.patel@acmerobotics.com' }));
    const before = leadRecord(org.id, { email: 'before@brightlane.io' });
    const partial = leadRecord(org.id, { email: 'partial@brightlane.io' });
    const retried = leadRecord(org.id, { email: 'retried@brightlane.io' });
    const attempts: string[] = [];
    await store().transaction(async (tx) => {
      await tx.leads.insert(before);
      for (let attempt = 1; ; attempt++) {
        try {
          await tx.transaction(async (inner) => {
            attempts.push(`attempt ${attempt}`);
            await inner.leads.insert(attempt === 1 ? partial : retried);
            // The first attempt runs into the existing lead, as a concurrent create would.
            if (attempt === 1) await inner.leads.insert(leadRecord(org.id, { email: 'MAYA.patel@acmerobotics.com' }));
          });
          break;
        } catch (error) {
          expect(error).toBeInstanceOf(UniqueViolation);
          if (attempt >= 2) throw error;
        }
      }
      // The outer transaction is still usable after the failed nested one.
      expect((await tx.leads.findByEmail(org.id, 'before@brightlane.io'))?.id).toBe(before.id);
    });
    expect(attempts).toEqual(['attempt 1', 'attempt 2']);
    expect(await store().leads.get(org.id, before.id)).not.toBeNull();
    expect(await store().leads.get(org.id, retried.id)).not.toBeNull();
    // The failed attempt's own write was undone with it.
    expect(await store().leads.get(org.id, partial.id)).toBeNull();
    expect((await store().leads.list(org.id, { limit: 10, offset: 0 })).total).toBe(3);
  });

  it('inserts the missing leads and answers the existing ones, unchanged, with their stored fields', async () => {
    const org = await organization(store());
    const existing = leadRecord(org.id, { email: 'maya.patel@acmerobotics.com' });
    await store().leads.insert(existing);
    const fresh = leadRecord(org.id, {
      email: 'jonas.weber@brightlane.io',
      // What an array's text form must quote: quotes, backslashes, braces, commas, NULL.
      first_name: 'Jo"nas \\ {x}, NULL',
      last_name: 'NULL',
      custom_fields: { zeta: 1, alpha: { b: [true, null], a: 'x "y" \\' } },
    });
    const again = leadRecord(org.id, { email: 'MAYA.PATEL@acmerobotics.com', first_name: 'Other' });
    const resolved = await store().leads.insertMissing([fresh, again]);
    expect(resolved.map((r) => r.inserted)).toEqual([true, false]);
    expect(resolved[1]?.lead).toEqual(existing);
    // The answer for a new lead is the lead as a later read gives it.
    expect(resolved[0]?.lead).toEqual(await store().leads.get(org.id, fresh.id));
    expect(resolved[0]?.lead).toMatchObject({ first_name: fresh.first_name, last_name: 'NULL' });
    expect(JSON.stringify(resolved[0]?.lead)).toBe(JSON.stringify(await store().leads.get(org.id, fresh.id)));
  });

  it('gives one lead per email to concurrent insertMissing calls, the later calls answered that lead', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const emails = ['ava@x.io', 'AVA@x.io', 'ben@x.io', 'Ava@X.io', 'ben@x.io', 'cleo@x.io'];
    const calls = [
      ...emails.map((email) => [leadRecord(org.id, { email })]),
      [leadRecord(other.id, { email: 'ava@x.io' })],
      [leadRecord(org.id, { email: null }), leadRecord(org.id, { email: null })],
    ];
    const answers = await Promise.all(calls.map((records) => store().leads.insertMissing(records)));
    const byEmail = new Map<string, string[]>();
    for (const [c, records] of calls.entries()) {
      for (const [i, record] of records.entries()) {
        const answer = answers[c]?.[i];
        if (!answer) throw new Error(`no answer for call ${c}, record ${i}`);
        expect(answer.inserted).toBe(answer.lead.id === record.id);
        expect(answer.lead.email?.toLowerCase()).toBe(record.email?.toLowerCase());
        expect(answer.lead.organization_id).toBe(record.organization_id);
        const key = `${record.organization_id} ${record.email?.toLowerCase() ?? record.id}`;
        byEmail.set(key, [...(byEmail.get(key) ?? []), answer.lead.id]);
      }
    }
    // One lead per email and organization, every record of it answered with that one lead;
    // each record without email inserted.
    for (const ids of byEmail.values()) expect(new Set(ids).size).toBe(1);
    expect(answers.flat().filter((answer) => answer.inserted)).toHaveLength(byEmail.size);
    expect((await store().leads.list(org.id, { limit: 20, offset: 0 })).total).toBe(5);
    expect((await store().leads.list(other.id, { limit: 20, offset: 0 })).total).toBe(1);
  });

  it('updates a live lead, refusing an email another live lead holds', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const maya = leadRecord(org.id, { email: 'maya.patel@acmerobotics.com' });
    const jonas = leadRecord(org.id, { email: 'jonas.weber@brightlane.io', first_name: 'Jonas' });
    await store().leads.insert(maya);
    await store().leads.insert(jonas);
    const updated = await store().leads.update(org.id, maya.id, {
      title: 'CEO',
      company: null,
      custom_fields: { pilots: 2 },
      updated_at: '2026-11-06T10:41:27.000Z',
    });
    expect(updated).toEqual({
      ...maya,
      title: 'CEO',
      company: null,
      custom_fields: { pilots: 2 },
      updated_at: '2026-11-06T10:41:27.000Z',
    });
    // Its own email in another case is not a conflict.
    expect((await store().leads.update(org.id, maya.id, { email: 'MAYA.patel@acmerobotics.com' }))?.email).toBe(
      'MAYA.patel@acmerobotics.com',
    );
    const error = await rejection(store().leads.update(org.id, maya.id, { email: 'Jonas.Weber@brightlane.io' }));
    expect((error as UniqueViolation).constraint).toBe('leads_email');
    expect((await store().leads.get(org.id, maya.id))?.email).toBe('MAYA.patel@acmerobotics.com');
    expect(await store().leads.update(other.id, maya.id, { title: 'x' })).toBeNull();
    await store().leads.erase(org.id, jonas.id, '2026-11-06T11:00:00.000Z');
    expect(await store().leads.update(org.id, jonas.id, { title: 'x' })).toBeNull();
    // The erased lead's email is free again.
    expect((await store().leads.update(org.id, maya.id, { email: 'jonas.weber@brightlane.io' }))?.email).toBe(
      'jonas.weber@brightlane.io',
    );
  });

  it('lists newest first with ties broken by id, with totals across pages', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const at = (day: number) => `2026-10-${String(day).padStart(2, '0')}T09:00:00.000Z`;
    const leads = [
      leadRecord(org.id, { id: idStarting('1'), email: 'a@example.com', created_at: at(1) }),
      leadRecord(org.id, { id: idStarting('2'), email: 'b@example.com', created_at: at(3) }),
      leadRecord(org.id, { id: idStarting('f'), email: 'c@example.com', created_at: at(3) }),
      leadRecord(org.id, { id: idStarting('a'), email: 'd@example.com', created_at: at(2) }),
      leadRecord(org.id, { id: idStarting('0'), email: 'e@example.com', created_at: at(4) }),
    ];
    for (const lead of [...leads].reverse()) await store().leads.insert(lead);
    await store().leads.insert(leadRecord(other.id, { created_at: at(9) }));
    const expected = ['e', 'c', 'b', 'd', 'a'].map((l) => `${l}@example.com`);

    const all = await store().leads.list(org.id, { limit: 100, offset: 0 });
    expect(all.items.map((l) => l.email)).toEqual(expected);
    expect(all.total).toBe(5);
    const pages = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await store().leads.list(org.id, { limit: 2, offset });
      expect(page.total).toBe(5);
      pages.push(...page.items.map((l) => l.email));
    }
    expect(pages).toEqual(expected);
    expect(await store().leads.list(org.id, { limit: 2, offset: 10 })).toEqual({ items: [], total: 5 });

    await store().leads.erase(org.id, leads[1]?.id ?? '', at(5));
    const afterErase = await store().leads.list(org.id, { limit: 100, offset: 0 });
    expect(afterErase.total).toBe(4);
    expect(afterErase.items.map((l) => l.email)).toEqual([
      'e@example.com',
      'c@example.com',
      'd@example.com',
      'a@example.com',
    ]);
  });

  it('filters the list by live enrolment and by email, case-insensitively', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const campaign = await insertCampaign(store(), org.id, org.ownerId);
    const foreignCampaign = await insertCampaign(store(), other.id, other.ownerId);
    const maya = leadRecord(org.id, { email: 'Maya.Patel@acmerobotics.com', created_at: '2026-10-06T09:00:00.000Z' });
    const jonas = leadRecord(org.id, { email: 'jonas.weber@brightlane.io', created_at: '2026-10-07T09:00:00.000Z' });
    const sofia = leadRecord(org.id, { email: 'sofia@lumenfreight.com', created_at: '2026-10-08T09:00:00.000Z' });
    for (const lead of [maya, jonas, sofia]) await store().leads.insert(lead);
    await store().enrolments.insert(enrolmentRecord(maya, campaign.id));
    await store().enrolments.insert(enrolmentRecord(jonas, campaign.id));
    await store().enrolments.insert(enrolmentRecord(sofia, campaign.id, { removed_at: '2026-10-09T09:00:00.000Z' }));

    const enrolled = await store().leads.list(org.id, { campaign_id: campaign.id, limit: 100, offset: 0 });
    expect(enrolled.items.map((l) => l.id)).toEqual([jonas.id, maya.id]);
    expect(enrolled.total).toBe(2);
    const page2 = await store().leads.list(org.id, { campaign_id: campaign.id, limit: 1, offset: 1 });
    expect(page2).toEqual({ items: [maya], total: 2 });
    const byEmail = await store().leads.list(org.id, { email: 'maya.patel@ACMEROBOTICS.com', limit: 100, offset: 0 });
    expect(byEmail).toEqual({ items: [maya], total: 1 });
    const both = await store().leads.list(org.id, {
      campaign_id: campaign.id,
      email: 'sofia@lumenfreight.com',
      limit: 100,
      offset: 0,
    });
    expect(both).toEqual({ items: [], total: 0 });
    expect(await store().leads.list(org.id, { campaign_id: foreignCampaign.id, limit: 100, offset: 0 })).toEqual({
      items: [],
      total: 0,
    });
    expect(await store().leads.list(org.id, { campaign_id: crypto.randomUUID(), limit: 100, offset: 0 })).toEqual({
      items: [],
      total: 0,
    });
  });

  it("pages a campaign's leads newest first, ties by id, without removed enrolments or deleted leads", async () => {
    const org = await organization(store());
    const campaign = await insertCampaign(store(), org.id, org.ownerId);
    const other = await insertCampaign(store(), org.id, org.ownerId);
    const at = (day: number) => `2026-10-${String(day).padStart(2, '0')}T09:00:00.000Z`;
    // Enrolled in an order unrelated to the leads' own: the list follows the leads.
    const leads = [
      leadRecord(org.id, { id: idStarting('1'), email: 'a@example.com', created_at: at(1) }),
      leadRecord(org.id, { id: idStarting('2'), email: 'b@example.com', created_at: at(3) }),
      leadRecord(org.id, { id: idStarting('f'), email: 'c@example.com', created_at: at(3) }),
      leadRecord(org.id, { id: idStarting('a'), email: 'd@example.com', created_at: at(2) }),
      leadRecord(org.id, { id: idStarting('0'), email: 'e@example.com', created_at: at(4) }),
      leadRecord(org.id, { id: idStarting('3'), email: 'removed@example.com', created_at: at(5) }),
      leadRecord(org.id, { id: idStarting('4'), email: 'erased@example.com', created_at: at(6) }),
      leadRecord(org.id, { id: idStarting('5'), email: 'outside@example.com', created_at: at(7) }),
    ];
    for (const lead of leads) await store().leads.insert(lead);
    for (const lead of [...leads.slice(0, 7)].reverse()) {
      await store().enrolments.insert(
        enrolmentRecord(lead, campaign.id, {
          removed_at: lead.email === 'removed@example.com' ? '2026-10-09T09:00:00.000Z' : null,
        }),
      );
    }
    await store().enrolments.insert(enrolmentRecord(nth(leads, 7), other.id));
    // Erased after its enrolment: the enrolment stays (analytics), the lead leaves the list.
    await store().leads.erase(org.id, nth(leads, 6).id, at(8));
    const expected = ['e', 'c', 'b', 'd', 'a'].map((l) => `${l}@example.com`);

    const all = await store().leads.list(org.id, { campaign_id: campaign.id, limit: 100, offset: 0 });
    expect(all.items.map((l) => l.email)).toEqual(expected);
    expect(all.total).toBe(5);
    expect(all.items[0]).toEqual(leads[4]);
    const pages = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await store().leads.list(org.id, { campaign_id: campaign.id, limit: 2, offset });
      expect(page.total).toBe(5);
      pages.push(...page.items.map((l) => l.email));
    }
    expect(pages).toEqual(expected);
    expect(await store().leads.list(org.id, { campaign_id: campaign.id, limit: 2, offset: 10 })).toEqual({
      items: [],
      total: 5,
    });
    expect(await store().enrolments.countForCampaign(campaign.id)).toBe(5);

    // Erasing a listed lead, and enrolling one again after its removal.
    await store().leads.erase(org.id, nth(leads, 1).id, at(9));
    await store().enrolments.insert(enrolmentRecord(nth(leads, 5), campaign.id));
    const after = await store().leads.list(org.id, { campaign_id: campaign.id, limit: 100, offset: 0 });
    expect(after.items.map((l) => l.email)).toEqual([
      'removed@example.com',
      'e@example.com',
      'c@example.com',
      'd@example.com',
      'a@example.com',
    ]);
    expect(after.total).toBe(5);
    expect(await store().enrolments.countForCampaign(campaign.id)).toBe(5);
    // The erased lead's enrolments are still there for analytics.
    expect(await store().enrolments.listForLead(nth(leads, 6).id)).toHaveLength(1);
  });

  it('erases a lead in place: personal fields emptied, the anonymised row kept', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const lead = leadRecord(org.id);
    await store().leads.insert(lead);
    expect(await store().leads.erase(other.id, lead.id, '2026-11-06T10:00:00.000Z')).toBe(false);
    expect(await store().leads.erase(org.id, lead.id, '2026-11-06T10:00:00.000Z')).toBe(true);
    expect(await store().leads.erase(org.id, lead.id, '2026-11-06T11:00:00.000Z')).toBe(false);

    const row = await store().leads.getRow(org.id, lead.id);
    expect(row).toEqual({
      id: lead.id,
      organization_id: org.id,
      email: null,
      first_name: null,
      last_name: null,
      company: null,
      title: null,
      industry: null,
      website: null,
      linkedin_profile: null,
      annual_revenue: null,
      employee_count: null,
      custom_fields: {},
      deleted_at: '2026-11-06T10:00:00.000Z',
      created_at: lead.created_at,
      updated_at: '2026-11-06T10:00:00.000Z',
    });
    expect(await store().leads.get(org.id, lead.id)).toBeNull();
    expect(await store().leads.getMany(org.id, [lead.id])).toEqual([]);
    expect(await store().leads.findByEmail(org.id, lead.email ?? '')).toBeNull();
  });

  // The stored row itself: read with SQL on the SQL stores, and the memory table's record.
  it('keeps no personal data in the erased stored row', async () => {
    const org = await organization(store());
    const lead = leadRecord(org.id);
    await store().leads.insert(lead);
    await store().leads.erase(org.id, lead.id, '2026-11-06T10:00:00.000Z');
    const [raw] =
      store().kind === 'memory'
        ? [{ row: await store().leads.getRow(org.id, lead.id) }]
        : await (store() as SqlStore).client.query<Record<string, unknown>>(
            'select to_jsonb(l) as row from leads l where id = $1',
            [lead.id],
          );
    const text = JSON.stringify(raw);
    for (const value of ['Maya', 'Patel', 'acmerobotics', 'Acme Robotics', 'Industrial', 'Series B', '48000000']) {
      expect(text).not.toContain(value);
    }
    const row = (raw as { row: Record<string, unknown> }).row;
    for (const field of personalFields) expect(row[field]).toBeNull();
    expect(row.custom_fields).toEqual({});
    expect(row.deleted_at).not.toBeNull();
  });
});

describeBackends('enrolment store contract', (store) => {
  it('keeps one live enrolment per campaign and lead, and lists them oldest first', async () => {
    const org = await organization(store());
    const campaign = await insertCampaign(store(), org.id, org.ownerId, { name: 'A' });
    const second = await insertCampaign(store(), org.id, org.ownerId, { name: 'B' });
    const third = await insertCampaign(store(), org.id, org.ownerId, { name: 'C' });
    const lead = leadRecord(org.id);
    await store().leads.insert(lead);
    const first = enrolmentRecord(lead, campaign.id, { id: idStarting('9'), enrolled_at: '2026-10-07T00:00:00.000Z' });
    const tie = enrolmentRecord(lead, second.id, { id: idStarting('1'), enrolled_at: '2026-10-07T00:00:00.000Z' });
    const earliest = enrolmentRecord(lead, third.id, { enrolled_at: '2026-10-06T00:00:00.000Z' });
    for (const record of [first, tie, earliest]) await store().enrolments.insert(record);

    expect(await store().enrolments.find(campaign.id, lead.id)).toEqual(first);
    expect((await store().enrolments.listForLead(lead.id)).map((e) => e.id)).toEqual([earliest.id, tie.id, first.id]);
    expect((await store().enrolments.listForLeads([lead.id, crypto.randomUUID()])).map((e) => e.id)).toEqual([
      earliest.id,
      tie.id,
      first.id,
    ]);
    expect(await store().enrolments.listForLeads([])).toEqual([]);

    const error = await rejection(store().enrolments.insert(enrolmentRecord(lead, campaign.id)));
    expect((error as UniqueViolation).constraint).toBe('enrolments_live');

    await store().enrolments.update(first.id, { removed_at: '2026-10-08T00:00:00.000Z' });
    expect(await store().enrolments.find(campaign.id, lead.id)).toBeNull();
    expect((await store().enrolments.listForLead(lead.id)).map((e) => e.id)).toEqual([earliest.id, tie.id]);
    // Removed, the lead may be enrolled again.
    const again = enrolmentRecord(lead, campaign.id, { enrolled_at: '2026-10-09T00:00:00.000Z' });
    await store().enrolments.insert(again);
    expect(await store().enrolments.find(campaign.id, lead.id)).toEqual(again);
  });

  it('updates status and arm, and counts live enrolments of live leads', async () => {
    const org = await organization(store());
    const campaign = await insertCampaign(store(), org.id, org.ownerId);
    const maya = leadRecord(org.id, { email: 'maya@example.com' });
    const jonas = leadRecord(org.id, { email: 'jonas@example.com' });
    const sofia = leadRecord(org.id, { email: 'sofia@example.com' });
    for (const lead of [maya, jonas, sofia]) await store().leads.insert(lead);
    const enrolments = [maya, jonas, sofia].map((lead) => enrolmentRecord(lead, campaign.id));
    for (const record of enrolments) await store().enrolments.insert(record);
    expect(await store().enrolments.countForCampaign(campaign.id)).toBe(3);

    await store().enrolments.update(enrolments[0]?.id ?? '', { status: 'active', variation: 'b' });
    expect(await store().enrolments.find(campaign.id, maya.id)).toMatchObject({ status: 'active', variation: 'b' });
    await store().enrolments.update(enrolments[1]?.id ?? '', { removed_at: '2026-11-01T00:00:00.000Z' });
    await store().leads.erase(org.id, sofia.id, '2026-11-02T00:00:00.000Z');
    expect(await store().enrolments.countForCampaign(campaign.id)).toBe(1);
    // Erasure leaves the enrolment row itself: it is the record of what was sent.
    expect(await store().enrolments.listForLead(sofia.id)).toEqual([enrolments[2]]);
  });
});

describeBackends('sender account store contract', (store) => {
  const account = (organizationId: string, overrides: Partial<SenderAccountRecord>): SenderAccountRecord => ({
    id: `acc_${crypto.randomUUID().slice(0, 8)}`,
    organization_id: organizationId,
    platform: 'linkedin',
    label: 'Sam Carter',
    status: 'connected',
    email: null,
    platform_username: 'sam-carter',
    daily_limit: 40,
    email_auth: null,
    connected_at: '2026-09-28T10:14:03.000Z',
    created_at: '2026-09-28T10:00:00.000Z',
    ...overrides,
  });

  it('lists oldest connected first, never connected last, ties by id in code-point order', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    const records = [
      account(org.id, { id: 'acc_never_b', connected_at: null, status: 'disconnected' }),
      account(org.id, { id: 'acc_late', connected_at: '2026-10-11T07:55:30.000Z' }),
      account(org.id, { id: 'acc_tie_a', connected_at: '2026-09-30T15:02:18.000Z', platform: 'email' }),
      account(org.id, { id: 'acc_Tie_Z', connected_at: '2026-09-30T15:02:18.000Z' }),
      account(org.id, { id: 'acc_never_A', connected_at: null, status: 'disconnected', platform: 'email' }),
      account(org.id, { id: 'acc_early', connected_at: '2026-09-28T10:14:03.000Z', platform: 'email' }),
      account(other.id, { id: 'acc_foreign', connected_at: '2026-01-01T00:00:00.000Z' }),
    ];
    for (const record of records) await store().accounts.insert(record);
    const ids = async (filter: { platform?: string; status?: string; limit?: number; offset?: number }) => {
      const page = await store().accounts.list(org.id, { limit: 500, offset: 0, ...filter });
      return { ids: page.items.map((a) => a.id), total: page.total };
    };
    expect(await ids({})).toEqual({
      ids: ['acc_early', 'acc_Tie_Z', 'acc_tie_a', 'acc_late', 'acc_never_A', 'acc_never_b'],
      total: 6,
    });
    expect(await ids({ limit: 2, offset: 2 })).toEqual({ ids: ['acc_tie_a', 'acc_late'], total: 6 });
    expect(await ids({ platform: 'email' })).toEqual({ ids: ['acc_early', 'acc_tie_a', 'acc_never_A'], total: 3 });
    expect(await ids({ status: 'disconnected' })).toEqual({ ids: ['acc_never_A', 'acc_never_b'], total: 2 });
    expect(await ids({ platform: 'linkedin', status: 'connected', limit: 1, offset: 1 })).toEqual({
      ids: ['acc_late'],
      total: 2,
    });
    expect(await store().accounts.get(other.id, 'acc_late')).toBeNull();
    expect((await store().accounts.getMany(org.id, ['acc_late', 'acc_foreign', 'acc_early'])).map((a) => a.id)).toEqual(
      ['acc_late', 'acc_early'],
    );
  });

  it('finds the account of one sender by address or username, in any case, in its organization and platform only', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    await store().accounts.insert(account(org.id, { id: 'acc_li', platform_username: 'Sam-Carter' }));
    await store().accounts.insert(
      account(org.id, { id: 'acc_em', platform: 'email', email: 'Growth@Northwind.example', platform_username: 'x' }),
    );
    await store().accounts.insert(account(other.id, { id: 'acc_foreign', platform_username: 'dana' }));
    const found = async (organizationId: string, platform: 'email' | 'linkedin', identity: string) =>
      (await store().transaction((tx) => tx.accounts.findSender(organizationId, platform, identity)))?.id ?? null;
    expect(await found(org.id, 'linkedin', 'sam-carter')).toBe('acc_li');
    expect(await found(org.id, 'email', 'growth@NORTHWIND.example')).toBe('acc_em');
    // A mailbox is found by its address, not its login; a LinkedIn account by its username only.
    expect(await found(org.id, 'email', 'x')).toBeNull();
    expect(await found(org.id, 'email', 'sam-carter')).toBeNull();
    expect(await found(org.id, 'linkedin', 'growth@northwind.example')).toBeNull();
    expect(await found(org.id, 'linkedin', 'dana')).toBeNull();
    expect(await found(other.id, 'linkedin', 'dana')).toBe('acc_foreign');
    // As lower() folds on every store (domain/fold-case.ts): the connect page takes usernames
    // of any letters, and JavaScript's toLowerCase made the memory store's final Σ a ς.
    await store().accounts.insert(account(org.id, { id: 'acc_greek', platform_username: 'ΟΔΥΣΣΕΑΣ' }));
    expect(await found(org.id, 'linkedin', 'οδυσσεασ')).toBe('acc_greek');
  });

  it('lists the campaigns that send from each account', async () => {
    const org = await organization(store());
    const other = await organization(store(), 'Other');
    for (const id of ['acc_a', 'acc_b', 'acc_c']) await store().accounts.insert(account(org.id, { id }));
    const older = await insertCampaign(store(), org.id, org.ownerId, {
      id: idStarting('f'),
      enabled_accounts: ['acc_b', 'acc_a'],
      created_at: '2026-10-01T00:00:00.000Z',
    });
    const tieLow = await insertCampaign(store(), org.id, org.ownerId, {
      id: idStarting('0'),
      enabled_accounts: ['acc_a'],
      is_active: true,
      created_at: '2026-10-02T00:00:00.000Z',
    });
    const tieHigh = await insertCampaign(store(), org.id, org.ownerId, {
      id: idStarting('9'),
      enabled_accounts: ['acc_a'],
      created_at: '2026-10-02T00:00:00.000Z',
    });
    // Another organization's campaign naming the same ID is not a use.
    await insertCampaign(store(), other.id, other.ownerId, { enabled_accounts: ['acc_a'] });

    expect(await store().accounts.listCampaignUses(org.id, ['acc_c', 'acc_b', 'acc_a', 'acc_a'])).toEqual([
      { account_id: 'acc_a', campaign_id: older.id },
      { account_id: 'acc_a', campaign_id: tieLow.id },
      { account_id: 'acc_a', campaign_id: tieHigh.id },
      { account_id: 'acc_b', campaign_id: older.id },
    ]);
    expect(await store().accounts.listCampaignUses(org.id, [])).toEqual([]);
  });

  it('stores connect links by unique token', async () => {
    const org = await organization(store());
    await store().accounts.insert(account(org.id, { id: 'acc_em', platform: 'email', status: 'disconnected' }));
    const link: ConnectLinkRecord = {
      token: 'cl_test0000000000000000001',
      organization_id: org.id,
      platform: 'email',
      account_id: 'acc_em',
      redirect_url: 'https://app.example.com/settings',
      expires_at: '2026-11-06T11:00:00.000Z',
      used_at: null,
      created_at: '2026-11-06T10:00:00.000Z',
    };
    await store().accounts.insertConnectLink(link);
    await store().accounts.insertConnectLink({ ...link, token: 'cl_test0000000000000000002', account_id: null });
    expect(await store().accounts.getConnectLink(link.token)).toEqual(link);
    expect((await store().accounts.getConnectLink('cl_test0000000000000000002'))?.account_id).toBeNull();
    expect(await store().accounts.getConnectLink('cl_unknown')).toBeNull();
    const error = await rejection(store().accounts.insertConnectLink({ ...link, platform: 'linkedin' }));
    expect(error).toBeInstanceOf(UniqueViolation);
  });

  it('claims a connect link once, only while it is unused and unexpired', async () => {
    const org = await organization(store());
    const link: ConnectLinkRecord = {
      token: 'cl_claim000000000000000001',
      organization_id: org.id,
      platform: 'linkedin',
      account_id: null,
      redirect_url: null,
      expires_at: '2026-11-06T11:00:00.000Z',
      used_at: null,
      created_at: '2026-11-06T10:00:00.000Z',
    };
    const expiring = { ...link, token: 'cl_claim000000000000000002' };
    await store().accounts.insertConnectLink(link);
    await store().accounts.insertConnectLink(expiring);
    expect(await store().accounts.claimConnectLink('cl_unknown', '2026-11-06T10:30:00.000Z')).toBeNull();
    // At the expiry itself the link no longer works.
    expect(await store().accounts.claimConnectLink(expiring.token, '2026-11-06T11:00:00.000Z')).toBeNull();
    expect(await store().accounts.getConnectLink(expiring.token)).toEqual(expiring);

    const claimed = await store().accounts.claimConnectLink(link.token, '2026-11-06T10:59:59.999Z');
    expect(claimed).toEqual({ ...link, used_at: '2026-11-06T10:59:59.999Z' });
    expect(await store().accounts.claimConnectLink(link.token, '2026-11-06T10:59:59.999Z')).toBeNull();
    expect(await store().accounts.getConnectLink(link.token)).toEqual(claimed);
  });

  it('claims a connect link for one of two racing transactions, and not for one that rolls back', async () => {
    const org = await organization(store());
    const link: ConnectLinkRecord = {
      token: 'cl_claim000000000000000003',
      organization_id: org.id,
      platform: 'email',
      account_id: null,
      redirect_url: null,
      expires_at: '2026-11-06T11:00:00.000Z',
      used_at: null,
      created_at: '2026-11-06T10:00:00.000Z',
    };
    await store().accounts.insertConnectLink(link);
    const at = '2026-11-06T10:30:00.000Z';
    const failed = await rejection(
      store().transaction(async (tx) => {
        expect(await tx.accounts.claimConnectLink(link.token, at)).not.toBeNull();
        throw new Error('the account write failed');
      }),
    );
    expect((failed as Error).message).toBe('the account write failed');
    expect((await store().accounts.getConnectLink(link.token))?.used_at).toBeNull();

    const claims = await Promise.all(
      [0, 1].map(() => store().transaction(async (tx) => tx.accounts.claimConnectLink(link.token, at))),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
  });
});
