/**
 * The queue (`GET /campaigns/{id}/queue`) reads a page of enrolments at a time in the order
 * of the engine's bounds (routes/queue-read.ts, decision 0002, "The queue reads by bound"):
 * its answer is the one the whole campaign gives (`campaignQueue` over every enrolment and
 * event) at every point of a campaign's life (bounds not known, written by rounds, moved by
 * replies, acceptances, a sequence edit; ties of leads enrolled together; `limit` and
 * `before`), as of one moment when writes come between its pages, and it reads the page's
 * enrolments, not the campaign's.
 */
import { beforeEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { campaignQueue } from '../../src/domain/campaign-queue.ts';
import type { Store } from '../../src/store/types.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, emailSequence, interceptStore, q4Sequence } from '../support/campaign-setup.ts';
import { activate, assignSenders, days, later, present, startOfTest } from './engine-setup.ts';

interface QueueItem {
  sequence_lead_id: string;
  due_at: string;
}

describeBackends('the queue reads by bound', (store) => {
  let api: TestApi;
  let clock: SandboxClock;
  /** Enrolment rows the queue read. */
  let rowsRead: number;
  /** A write started right after the queue's first page is read (see `writeBetweenPages`). */
  let betweenPages: (() => Promise<unknown>) | null;
  let writeStarted: Promise<unknown> | null;

  beforeEach(async () => {
    clock = new SandboxClock({ now: () => new Date(startOfTest) });
    rowsRead = 0;
    betweenPages = null;
    writeStarted = null;
    const counted: Store = interceptStore(store(), {
      enrolments: (real) => ({
        async *pagesByBound(campaignId, pageSize) {
          for await (const page of real.pagesByBound(campaignId, pageSize)) {
            rowsRead += page.length;
            const write = betweenPages;
            betweenPages = null;
            if (write) {
              // Started between the pages and given time to commit; where the store makes it
              // wait for the read (PGlite's one connection, the memory store's transactions),
              // the read goes on after the wait.
              writeStarted = write();
              await Promise.race([writeStarted, new Promise((resolve) => setTimeout(resolve, 300))]);
            }
            yield page;
          }
        },
      }),
    });
    api = await createTestApi(counted, { clock, config: { sandbox: true } });
  });

  /** `count` leads imported into the campaign in one batch: enrolled at the same instant. */
  const importLeads = async (campaignId: string, prefix: string, count: number) => {
    const leads = Array.from({ length: count }, (_, i) => ({
      email: `${prefix}-${i}@queue.example`,
      first_name: 'Queue',
      company: 'Bound Inc',
      custom_fields: { icebreaker: 'Saw the launch.' },
      campaign_id: campaignId,
    }));
    const answer = await api.call('POST', '/v1/leads', { body: { leads } });
    expect(answer.status).toBe(207);
    return (answer.body.results as Array<{ lead_id: string }>).map((item) => item.lead_id);
  };

  /** An active two-step email campaign whose `count` leads, imported together, were sent step 1. */
  const emailCampaignSentStepOne = async (name: string, prefix: string, count: number) => {
    const campaignId = await createCampaign(api, { name, sequence: emailSequence(2) });
    const accounts = await demoAccounts(api);
    await assignSenders(api, campaignId, [accounts.email.id]);
    await store().accounts.update(api.organizationId, accounts.email.id, { daily_limit: 10_000 });
    await importLeads(campaignId, prefix, count);
    await activate(api, campaignId);
    expect((await api.app.engine.runDue()).steps_run).toBe(count);
    return campaignId;
  };

  /** The queue as the whole campaign gives it. */
  const wholeQueue = async (campaignId: string, limit: number, before?: string) => {
    const campaign = present(await store().campaigns.get(api.organizationId, campaignId));
    return campaignQueue({
      campaign,
      accounts: await store().accounts.getMany(api.organizationId, campaign.enabled_accounts),
      enrolments: await store().activity.listEnrolments(campaignId),
      events: await store().activity.listForCampaign(campaignId),
      now: clock.now().toISOString(),
      before,
      limit,
    });
  };

  const answered = async (campaignId: string, query: string) => {
    const answer = await api.call('GET', `/v1/campaigns/${campaignId}/queue?${query}`);
    expect(answer.status).toBe(200);
    return answer.body.queue as QueueItem[];
  };

  /** The route's answer is the whole campaign's, for several limits and a `before` inside the queue. */
  const expectWholeCampaignsQueue = async (campaignId: string) => {
    for (const limit of [1, 7, 100, 500]) {
      expect(await answered(campaignId, `limit=${limit}`)).toEqual(await wholeQueue(campaignId, limit));
    }
    const all = await wholeQueue(campaignId, 500);
    const middle = all[Math.floor(all.length / 2)];
    if (middle) {
      const before = encodeURIComponent(middle.due_at);
      expect(await answered(campaignId, `limit=500&before=${before}`)).toEqual(
        await wholeQueue(campaignId, 500, middle.due_at),
      );
    }
    return all;
  };

  it('answers what the whole campaign gives through bounds not known, rounds, replies, acceptances and an edit', async () => {
    const campaignId = await createCampaign(api, { name: 'Bounds', sequence: q4Sequence() });
    const accounts = await demoAccounts(api);
    await assignSenders(api, campaignId, [accounts.email.id, accounts.linkedin.id]);
    for (const account of [accounts.email, accounts.linkedin]) {
      await store().accounts.update(api.organizationId, account.id, { daily_limit: 10_000 });
    }
    const ab = await api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, {
      body: { enabled: true, traffic_split: 50 },
    });
    expect(ab.status).toBe(200);
    // Three batches three hours apart: three groups of leads that share their due times.
    const leadIds: string[] = [];
    for (const batch of ['first', 'second', 'third']) {
      leadIds.push(...(await importLeads(campaignId, batch, 45)));
      clock.advanceTo(later(clock, 3 * 3_600_000));
    }
    // Not active: nothing queued.
    expect(await answered(campaignId, 'limit=10')).toEqual([]);
    await activate(api, campaignId);
    // Every bound not known: the whole campaign is read, and the answer is the same.
    expect((await expectWholeCampaignsQueue(campaignId)).length).toBe(135);

    const { engine } = api.app;
    expect((await engine.runDue()).steps_run).toBe(135);
    await expectWholeCampaignsQueue(campaignId);
    // Into the conditional's days: profile views and connection requests go out.
    await engine.advanceTo(later(clock, days(2)));
    await expectWholeCampaignsQueue(campaignId);

    // Some leads reply (paused), some accept the connection (the `yes` branch).
    for (const leadId of leadIds.slice(0, 10)) {
      const reply = await api.call('POST', `/v1/sandbox/campaigns/${campaignId}/replies`, {
        body: { lead_id: leadId, channel: 'email', message: 'Not now, thanks.' },
      });
      expect(reply.status).toBe(201);
    }
    for (const leadId of leadIds.slice(50, 70)) {
      const accepted = await api.call('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, {
        body: { lead_id: leadId, kind: 'connection_accepted' },
      });
      expect(accepted.status).toBe(201);
    }
    await expectWholeCampaignsQueue(campaignId);
    await engine.runDue();
    await expectWholeCampaignsQueue(campaignId);

    // An edit brings arm a's conditional a day earlier: every bound is not known again.
    const edited = await api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/4`, {
      body: { updates: { delay: 2 } },
    });
    expect(edited.status).toBe(200);
    await expectWholeCampaignsQueue(campaignId);
    for (const step of [1, 2, 3]) {
      await engine.advanceTo(later(clock, days(step)));
      await expectWholeCampaignsQueue(campaignId);
    }
  });

  it('keeps the ID order of leads due at the same time when one of them was read early, by a bound below its due time', async () => {
    const campaignId = await emailCampaignSentStepOne('Ties', 'tied', 151);
    // All 151 wait for step 2 at the same time, each with that time as its bound. The lead of
    // the highest ID gets a bound an hour earlier (a bound is a lower bound: still true), so
    // the first page reads it, then the 99 lowest IDs of the others; it sorts after them all.
    const waiting = await store().enrolments.listDue(campaignId, later(clock, days(30)).toISOString());
    const last = present(waiting.reduce((a, b) => (a.id > b.id ? a : b)));
    const due = Date.parse(present(await store().enrolments.earliestDueAfter(campaignId, clock.now().toISOString())));
    expect(
      await store().enrolments.setDue([
        { id: last.id, due_at: new Date(due - 3_600_000).toISOString(), mark: last.due_mark },
      ]),
    ).toBe(1);
    const queue = await answered(campaignId, 'limit=100');
    expect(queue).toEqual(await wholeQueue(campaignId, 100));
    expect(queue.map((item) => item.sequence_lead_id)).not.toContain(last.id);
  });

  /** 150 leads overdue for step 2 (bounds worked out), then 150 new leads whose bounds are not known yet. */
  const overdueAndNew = async () => {
    const campaignId = await emailCampaignSentStepOne('Concurrent', 'old', 150);
    clock.advanceTo(later(clock, days(3)));
    const fresh = await importLeads(campaignId, 'new', 150);
    return { campaignId, fresh };
  };

  /** The queue with `write` run between its pages: the whole campaign's answer before or after it, each lead once. */
  const expectOneMoment = async (campaignId: string, write: () => Promise<unknown>) => {
    const before = await wholeQueue(campaignId, 100);
    betweenPages = write;
    const queue = await answered(campaignId, 'limit=100');
    await writeStarted;
    const after = await wholeQueue(campaignId, 100);
    const ids = queue.map((item) => item.sequence_lead_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([before, after]).toContainEqual(queue);
  };

  it('reads its pages as of one moment: an edit committed between them skips no lead', async () => {
    const { campaignId } = await overdueAndNew();
    // What a sequence edit or an A/B change commits; the due times themselves stay as they were.
    await expectOneMoment(campaignId, () => store().enrolments.markCampaignDue(campaignId));
  });

  it('reads its pages as of one moment: a round run between them lists no lead twice', async () => {
    const { campaignId, fresh } = await overdueAndNew();
    // 60 of the new leads removed from the campaign: bounds not known, never worked out.
    const freshIds = new Set(fresh);
    const removedFirst = (await store().activity.listEnrolments(campaignId))
      .filter((enrolment) => freshIds.has(enrolment.lead_id))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, 60);
    for (const enrolment of removedFirst) {
      const removed = await api.call('DELETE', `/v1/leads/${enrolment.lead_id}?campaign_id=${campaignId}`);
      expect(removed.status).toBe(200);
    }
    await expectOneMoment(campaignId, () => api.app.engine.runDue());
  });

  it('reads a page of the campaign’s enrolments for a page of its queue, not the campaign', async () => {
    const campaignId = await createCampaign(api, { name: 'Large', sequence: emailSequence(2) });
    const accounts = await demoAccounts(api);
    await assignSenders(api, campaignId, [accounts.email.id]);
    await store().accounts.update(api.organizationId, accounts.email.id, { daily_limit: 10_000 });
    await importLeads(campaignId, 'early', 150);
    clock.advanceTo(later(clock, 3_600_000));
    await importLeads(campaignId, 'late', 150);
    await activate(api, campaignId);
    expect((await api.app.engine.runDue()).steps_run).toBe(300);
    // Every lead waits two days for its second step, the early ones an hour less.
    rowsRead = 0;
    const queue = await answered(campaignId, 'limit=10');
    expect(queue).toEqual(await wholeQueue(campaignId, 10));
    expect(rowsRead).toBe(100);
    // A page of the queue reads one page of enrolments of its own size, across the two groups.
    rowsRead = 0;
    expect(await answered(campaignId, 'limit=200')).toEqual(await wholeQueue(campaignId, 200));
    expect(rowsRead).toBe(200);
    // An edit makes every bound not known: the queue reads the whole campaign until a round
    // has worked them out again.
    const edited = await api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/2`, {
      body: { updates: { delay: 1 } },
    });
    expect(edited.status).toBe(200);
    rowsRead = 0;
    expect(await answered(campaignId, 'limit=10')).toEqual(await wholeQueue(campaignId, 10));
    expect(rowsRead).toBe(300);
    expect((await api.app.engine.runDue()).steps_run).toBe(0);
    rowsRead = 0;
    expect(await answered(campaignId, 'limit=10')).toEqual(await wholeQueue(campaignId, 10));
    expect(rowsRead).toBe(100);
  });
});
