/**
 * Store contract for the reads the campaign endpoints added: the leads enrolled in a
 * campaign (preflight coverage) and sender accounts read with row locks (activation and
 * sender assignment). Same assertions on memory, PGlite and PostgreSQL.
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import type { CampaignRecord, EnrolmentRecord, LeadRecord, SenderAccountRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 2, 9, minute)).toISOString();

async function organization(store: Store) {
  const ownerId = crypto.randomUUID();
  const org = await createOrganization(store, {
    name: 'Contract Org',
    members: [{ id: ownerId, email: 'owner@example.com', name: 'Owner', role: 'owner' }],
  });
  const campaign = async (): Promise<CampaignRecord> => {
    const record: CampaignRecord = {
      id: crypto.randomUUID(),
      organization_id: org.id,
      owner_id: ownerId,
      name: 'Campaign',
      description: '',
      is_active: false,
      ab_testing_enabled: false,
      traffic_split: 50,
      ab_winner: null,
      custom_fields: {},
      enabled_accounts: [],
      lead_database_filters: null,
      refill_policy: null,
      responder_enabled: false,
      sequence: [],
      sequence_version: 0,
      activated_at: null,
      created_at: at(0),
      updated_at: at(0),
    };
    await store.campaigns.insert(record);
    return record;
  };
  const lead = async (fields: Partial<LeadRecord> = {}): Promise<LeadRecord> => {
    const record: LeadRecord = {
      id: crypto.randomUUID(),
      organization_id: org.id,
      email: null,
      first_name: 'Maya',
      last_name: null,
      company: null,
      title: null,
      industry: null,
      website: null,
      linkedin_profile: null,
      annual_revenue: 1200000,
      employee_count: 80,
      custom_fields: { pain_point: 'slow outbound', nested: { tier: 1 } },
      deleted_at: null,
      created_at: at(0),
      updated_at: at(0),
      ...fields,
    };
    await store.leads.insert(record);
    return record;
  };
  const enrol = async (campaignId: string, leadId: string, fields: Partial<EnrolmentRecord> = {}) => {
    const record: EnrolmentRecord = {
      id: crypto.randomUUID(),
      organization_id: org.id,
      campaign_id: campaignId,
      lead_id: leadId,
      status: 'not_contacted',
      variation: null,
      enrolled_at: at(1),
      removed_at: null,
      ...fields,
    };
    await store.enrolments.insert(record);
    return record;
  };
  const account = async (id: string): Promise<SenderAccountRecord> => {
    const record: SenderAccountRecord = {
      id,
      organization_id: org.id,
      platform: 'email',
      label: id,
      status: 'connected',
      email: `${id}@example.com`,
      platform_username: id,
      daily_limit: 50,
      email_auth: { spf: true, dkim: true, dmarc: false },
      connected_at: at(0),
      created_at: at(0),
    };
    await store.accounts.insert(record);
    return record;
  };
  return { id: org.id, campaign, lead, enrol, account };
}

describeBackends('store contract: campaign reads', (store, backend) => {
  it('lists the leads of a campaign’s live enrolments, by enrolment time then enrolment id', async () => {
    const org = await organization(store());
    const campaign = await org.campaign();
    const other = await org.campaign();
    const late = await org.lead();
    const tiedHigh = await org.lead();
    const tiedLow = await org.lead();
    const removed = await org.lead();
    const deleted = await org.lead();
    await org.enrol(campaign.id, late.id, { enrolled_at: at(5) });
    await org.enrol(campaign.id, tiedHigh.id, { id: 'ffffffff-0000-4000-8000-000000000000', enrolled_at: at(2) });
    await org.enrol(campaign.id, tiedLow.id, { id: '00000000-0000-4000-8000-000000000000', enrolled_at: at(2) });
    await org.enrol(campaign.id, removed.id, { removed_at: at(3) });
    await org.enrol(campaign.id, deleted.id);
    await org.enrol(other.id, late.id);
    await store().leads.erase(org.id, deleted.id, at(4));
    const listed = await store().enrolments.listLeadsForCampaign(campaign.id);
    expect(listed).toEqual([tiedLow, tiedHigh, late]);
    expect(await store().enrolments.countForCampaign(campaign.id)).toBe(listed.length);
    expect(await store().enrolments.listLeadsForCampaign(crypto.randomUUID())).toEqual([]);
  });

  it('reads accounts in the order asked, with or without locks, leaving out unknown and foreign ones', async () => {
    const org = await organization(store());
    const foreign = await organization(store());
    const b = await org.account(`acc_b_${org.id.slice(0, 8)}`);
    const a = await org.account(`acc_a_${org.id.slice(0, 8)}`);
    const theirs = await foreign.account(`acc_c_${foreign.id.slice(0, 8)}`);
    const ids = [b.id, 'acc_unknown', theirs.id, a.id];
    expect(await store().accounts.getMany(org.id, ids)).toEqual([b, a]);
    const locked = await store().transaction((tx) => tx.accounts.getMany(org.id, ids, { forUpdate: true }));
    expect(locked).toEqual([b, a]);
  });

  it('holds account locks until the transaction ends: a second locker waits for the first', async () => {
    const org = await organization(store());
    const account = await org.account(`acc_l_${org.id.slice(0, 8)}`);
    const events: string[] = [];
    let second: Promise<void> | undefined;
    await store().transaction(async (tx) => {
      await tx.accounts.getMany(org.id, [account.id], { forUpdate: true });
      events.push('first locked');
      let started: () => void = () => undefined;
      const secondStarted = new Promise<void>((resolve) => (started = resolve));
      second = store().transaction(async (other) => {
        await other.accounts.get(org.id, account.id);
        started();
        await other.accounts.getMany(org.id, [account.id], { forUpdate: true });
        events.push('second locked');
      });
      // Memory and PGlite run transactions one at a time: the second cannot start before the
      // first ends. On PostgreSQL it runs beside the first, up to the lock.
      if (backend === 'postgres') await secondStarted;
      // Work enough that an unlocked read by the second would overtake it.
      for (let i = 0; i < 10; i++) await tx.accounts.get(org.id, account.id);
      events.push('first done');
    });
    await second;
    expect(events).toEqual(['first locked', 'first done', 'second locked']);
  });
});
