/**
 * `engine-round-postgres`: the time of one engine round (`Engine.runDue`) over a campaign of
 * 20,000 leads that all wait out a delay of days, against the same round over a campaign of
 * 200 such leads, each on its own scratch PostgreSQL database (no ANALYZE, autovacuum as the
 * server has it). The sender has budget, so a round cannot skip the campaign on that ground:
 * what it reads is what the schedule says may be due (decision 0002, "Due times"). The engine
 * runs in this process, on the store and the sandbox clock, as `serve` runs it, and the tables
 * are vacuumed after the first round as `serve`'s keeper vacuums them where autovacuum is off
 * (the run prints what it vacuumed; a writer's counts can reach PostgreSQL a second late, so
 * the small campaign's few dead rows may not be counted yet). Target: the large campaign's
 * round within 2 x the small one's (flat with the campaign; reading every lead made it about
 * 100 x; without the vacuum, 1.9-2.2 x, the old index entries the first round left).
 */
import { SandboxClock } from '../src/domain/clock.ts';
import { sandboxChannel } from '../src/engine/channel.ts';
import { createEngine, type DeliveryRunner } from '../src/engine/engine.ts';
import { createApp } from '../src/app.ts';
import { seedDemoOrganization } from '../src/seed/demo.ts';
import { openSqlStore, type SqlStore } from '../src/store/sql/index.ts';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { repetitions } from '../../../bench/harness/settings.ts';

const largeLeads = Number(process.env.BENCH_ENGINE_LEADS ?? 20_000);
const smallLeads = 200;
/** Rounds timed per sample (their median is the sample): a round is a few milliseconds. */
const roundsPerSample = 9;
const minuteMs = 60_000;
const dayMs = 86_400_000;

const noDeliveries: DeliveryRunner = {
  runDue: async () => 0,
  nextDueAt: async () => null,
  notify: () => undefined,
  start: () => undefined,
  stop: async () => undefined,
};

interface WaitingCampaign {
  store: SqlStore;
  clock: SandboxClock;
  runRound(): Promise<number>;
}

/** A campaign of `leads` leads, each sent its first step, all waiting two days for the next. */
async function waitingCampaign(url: string, leads: number, progress: (text: string) => void): Promise<WaitingCampaign> {
  const store = await openSqlStore({ databaseUrl: url });
  const clock = new SandboxClock({ now: () => new Date('2026-11-09T09:00:00.000Z') });
  const app = createApp({ store, clock, config: { sandbox: true } });
  const demo = await seedDemoOrganization(store, { name: 'Bench Outreach' });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await app.fetch(
      new Request(`http://localhost/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300 && response.status !== 207) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    }
    return answer;
  };
  const step = (id: number, delay: number) => ({
    id,
    type: 'email',
    subject: `Step ${id} for {first_name}`,
    content: `Hello {first_name} at {company}`,
    delay,
  });
  const created = await call('POST', '/campaigns', {
    name: 'Waiting',
    sequence: { variation_a: [step(1, 0), step(2, 2)] },
  });
  const campaignId = (created.campaign as { id: string }).id;
  const accounts = (await call('GET', '/accounts')).accounts as Array<{ id: string; platform: string; status: string }>;
  const email = accounts.find((account) => account.platform === 'email' && account.status === 'connected');
  if (!email) throw new Error('no connected email account in the seed');
  await call('PUT', `/campaigns/${campaignId}/senders`, { account_ids: [email.id] });
  await store.accounts.update(demo.organizationId, email.id, { daily_limit: 10_000_000 });
  for (let first = 0; first < leads; first += 2_000) {
    const batch = Array.from({ length: Math.min(2_000, leads - first) }, (_, i) => ({
      email: `waiting-${first + i}@bench.example`,
      first_name: 'Wait',
      company: 'Delay Inc',
      campaign_id: campaignId,
    }));
    await call('POST', '/leads', { leads: batch });
  }
  await call('PATCH', `/campaigns/${campaignId}`, { is_active: true });
  const engine = createEngine({ store, clock, channel: sandboxChannel, deliveries: noDeliveries });
  const started = performance.now();
  const first = await engine.runDue();
  if (first.steps_run !== leads) throw new Error(`first round ran ${first.steps_run} steps, not ${leads}`);
  progress(`${leads} leads sent their first step in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // The next day: the day's messages a round counts (for the daily limit) are a day's sends,
  // which a sender's limit bounds, not the campaign; the first day here sent every lead's.
  clock.advanceTo(new Date(clock.now().getTime() + dayMs));
  // What `serve`'s keeper does within 30 s of that round where autovacuum is off (decision
  // 0006, "Dead row versions"): the first round rewrote every enrolment, and without a vacuum
  // each later round's `listDue` steps over the 20,000 old index entries of `enrolments_due`
  // and their heap pages (1.4 ms on this machine, `EXPLAIN (ANALYZE, BUFFERS)`).
  const vacuumed = await store.vacuumWhereNeeded();
  progress(`vacuumed where autovacuum would have: ${vacuumed.join(', ') || 'nothing'}`);
  return {
    store,
    clock,
    async runRound() {
      // A minute on: still a day and more before any second step.
      clock.advanceTo(new Date(clock.now().getTime() + minuteMs));
      const round = await engine.runDue();
      if (round.steps_run !== 0) throw new Error(`a waiting round ran ${round.steps_run} steps`);
      return round.steps_run;
    },
  };
}

/** The median time of `roundsPerSample` rounds, in ms. */
async function roundTime(campaign: WaitingCampaign): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < roundsPerSample; i++) {
    const started = performance.now();
    await campaign.runRound();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

await runBench(
  {
    name: 'engine-round-postgres',
    title: `Engine.runDue over ${largeLeads.toLocaleString('en')} leads waiting out a delay vs over ${smallLeads}, PostgreSQL, no ANALYZE`,
  },
  async (bench) => {
    const url = databaseUrl();
    if (!url) throw new Error('set DATABASE_URL');
    bench.set(
      'round',
      `sender with budget, every lead waiting two days for its second step; median of ${roundsPerSample} rounds per sample`,
    );
    const large = await createScratchDatabase(url);
    const small = await createScratchDatabase(url);
    let campaigns: WaitingCampaign[] = [];
    try {
      const setUp = performance.now();
      campaigns = [
        await waitingCampaign(large.url, largeLeads, bench.progress),
        await waitingCampaign(small.url, smallLeads, bench.progress),
      ];
      bench.set('set-up', `${((performance.now() - setUp) / 1000).toFixed(1)} s (imports and first rounds)`);
      const [largeCampaign, smallCampaign] = campaigns as [WaitingCampaign, WaitingCampaign];
      // Warm-up: statement plans, connections.
      await roundTime(largeCampaign);
      await roundTime(smallCampaign);
      const samples = await interleave(repetitions(5), {
        large: () => roundTime(largeCampaign),
        small: () => roundTime(smallCampaign),
      });
      bench.add(
        compare({
          name: `round time, ${largeLeads.toLocaleString('en')} / ${smallLeads} waiting leads`,
          subject: { label: `${largeLeads.toLocaleString('en')} leads`, unit: 'ms', samples: samples.large },
          baseline: { label: `${smallLeads} leads`, unit: 'ms', samples: samples.small },
          target: { op: '<=', value: 2 },
        }),
      );
    } finally {
      for (const campaign of campaigns) await campaign.store.close();
      await large.drop();
      await small.drop();
    }
  },
);
