/**
 * `Idempotency-Key` and failures between a request's writes and its stored answer
 * (decision 0020): the writes and the answer commit together or not at all, so a request
 * that died storing its answer left nothing, and the retry that takes the key over creates
 * exactly once, for every operation that takes a key.
 */
import { expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { handlers } from '../../src/routes/index.ts';
import { UniqueViolation } from '../../src/store/errors.ts';
import type { IdempotencyStore, Store } from '../../src/store/types.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { availableBackends, describeBackends } from '../support/backends.ts';
import { insertCampaign } from '../support/lead-fixtures.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Short, so that a test can wait for a dead request's lease to run out. */
const leaseMs = 300;

/**
 * The store as a process sees it when it dies while storing an answer: the first completion
 * fails (the connection is gone), and so does the release that follows it, so nothing frees
 * the key: only its lease running out lets a retry take it over.
 */
function dyingAtFirstCompletion(store: Store): Store {
  let completions = 0;
  let dead = false;
  const idempotency = (target: IdempotencyStore): IdempotencyStore => ({
    ...target,
    claim: (record, now) => target.claim(record, now),
    complete: async (...args: Parameters<IdempotencyStore['complete']>) => {
      if (completions++ === 0) {
        dead = true;
        throw new Error('connection lost');
      }
      return target.complete(...args);
    },
    release: async (...args: Parameters<IdempotencyStore['release']>) => {
      if (dead) {
        dead = false;
        throw new Error('connection lost');
      }
      return target.release(...args);
    },
  });
  const wrap = (target: Store): Store => ({
    ...target,
    idempotency: idempotency(target.idempotency),
    transaction: (work) => target.transaction((tx) => work(wrap(tx))),
  });
  return wrap(store);
}

/** The store whose first transaction fails at its commit, after all its work ran. */
function failingFirstCommit(store: Store): Store {
  let commits = 0;
  return {
    ...store,
    transaction: (work) =>
      store.transaction(async (tx) => {
        const result = await work(tx);
        if (commits++ === 0) throw new Error('connection lost at commit');
        return result;
      }),
  };
}

interface Operation {
  name: string;
  path: string;
  body: (api: TestApi) => Promise<unknown>;
  status: number;
  /** What the request writes, counted in the store: the same after a retry as after one success. */
  count: (api: TestApi) => Promise<number[]>;
  created: number[];
}

const campaignCount = async (api: TestApi) =>
  (await api.store.campaigns.list(api.organizationId, { limit: 100, offset: 0 })).total;
const leadCount = async (api: TestApi) =>
  (await api.store.leads.list(api.organizationId, { limit: 100, offset: 0 })).total;
const enrolled = async (api: TestApi) => {
  const campaigns = await api.store.campaigns.list(api.organizationId, { limit: 100, offset: 0 });
  let total = 0;
  for (const campaign of campaigns.items) total += await api.store.enrolments.countForCampaign(campaign.id);
  return total;
};
const profile = (n: number) => `https://www.linkedin.com/in/no-email-${n}`;

const operations: Operation[] = [
  {
    name: 'a campaign',
    path: '/v1/campaigns',
    body: async () => ({ name: 'Q4 Founders', description: 'once' }),
    status: 201,
    count: async (api) => [await campaignCount(api)],
    created: [1],
  },
  {
    name: 'a lead without email',
    path: '/v1/leads',
    body: async () => ({ first_name: 'Priya', linkedin_profile: profile(1) }),
    status: 201,
    count: async (api) => [await leadCount(api)],
    created: [1],
  },
  {
    name: 'a lead enrolled in a campaign (a nested transaction)',
    path: '/v1/leads',
    body: async (api) => ({
      linkedin_profile: profile(2),
      campaign_id: (await insertCampaign(api.store, api.organizationId, api.ownerId)).id,
    }),
    status: 201,
    count: async (api) => [await leadCount(api), await enrolled(api)],
    created: [1, 1],
  },
  {
    name: 'an import',
    path: '/v1/leads',
    body: async () => ({ leads: [1, 2, 3].map((n) => ({ linkedin_profile: profile(n) })) }),
    status: 207,
    count: async (api) => [await leadCount(api)],
    created: [3],
  },
];

describeBackends('idempotency keys: writes commit with their answer', (store) => {
  for (const operation of operations) {
    it(`leaves nothing of ${operation.name} whose answer was never stored, and the retry creates once`, async () => {
      const api = await createTestApi(dyingAtFirstCompletion(store()), { idempotency: { leaseMs } });
      const body = await operation.body(api);
      const before = await operation.count(api);
      const send = () => api.call('POST', operation.path, { body, headers: { 'Idempotency-Key': 'dies-once' } });
      const died = await send();
      expect(died.status).toBe(500);
      expect(await operation.count(api)).toEqual(before);
      // Nothing freed the key: a repeat at once finds it still claimed.
      expect((await send()).body.error).toBe('IDEMPOTENCY_IN_PROGRESS');
      await sleep(leaseMs + 50);
      const retry = await send();
      expect(retry.status).toBe(operation.status);
      const replay = await send();
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(retry.body);
      expect(await operation.count(api)).toEqual(before.map((n, i) => n + (operation.created[i] ?? 0)));
    });

    it(`leaves nothing of ${operation.name} whose transaction failed at commit, and frees the key`, async () => {
      const api = await createTestApi(store());
      const body = await operation.body(api);
      const before = await operation.count(api);
      const flaky = createApp({ store: failingFirstCommit(store()) });
      const send = (app = api.app) =>
        app.fetch(
          new Request(`http://localhost${operation.path}`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${api.key}`,
              'Content-Type': 'application/json',
              'Idempotency-Key': 'commit-fails',
            },
            body: JSON.stringify(body),
          }),
        );
      expect((await send(flaky)).status).toBe(500);
      expect(await operation.count(api)).toEqual(before);
      // Nothing committed, so the key was freed: the retry runs at once, and creates once.
      expect((await send()).status).toBe(operation.status);
      expect((await send()).headers.get('idempotent-replayed')).toBe('true');
      expect(await operation.count(api)).toEqual(before.map((n, i) => n + (operation.created[i] ?? 0)));
    });
  }

  it('retries a nested transaction that hit UniqueViolation inside the keyed request, its first attempt undone', async () => {
    // A concurrent enrolment of the lead, as the handler meets it: the first attempt's writes
    // (the lead and its enrolment) are in, then the unique index refuses.
    let races = 1;
    const racing = (target: Store): Store => ({
      ...target,
      enrolments: {
        ...target.enrolments,
        insert: async (record) => {
          await target.enrolments.insert(record);
          if (races-- > 0) throw new UniqueViolation('enrolments_live');
        },
      },
      transaction: (work) => target.transaction((tx) => work(racing(tx))),
    });
    const api = await createTestApi(racing(store()));
    const q4 = await insertCampaign(api.store, api.organizationId, api.ownerId);
    const answer = await api.call<{ created: boolean; lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: 'maya@acme.example', campaign_id: q4.id },
      headers: { 'Idempotency-Key': 'races-once' },
    });
    expect(races).toBe(-1);
    expect([answer.status, answer.body.created]).toEqual([201, true]);
    expect(await leadCount(api)).toBe(1);
    expect(await store().enrolments.countForCampaign(q4.id)).toBe(1);
    expect((await store().leads.findByEmail(api.organizationId, 'maya@acme.example'))?.id).toBe(answer.body.lead.id);
  });
});

// PGlite runs one transaction at a time and no statement beside it: a second request cannot
// claim the key while the first one's transaction is open, so a takeover mid-run cannot happen.
describeBackends(
  'idempotency keys: a request that ran past its lease',
  (store) => {
    it('rolls back the request whose key was taken over, and keeps the one that took it', async () => {
      const api = await createTestApi(store());
      let entered: () => void = () => undefined;
      const inHandler = new Promise<void>((resolve) => {
        entered = resolve;
      });
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let calls = 0;
      const slowFirst = createApp({
        store: store(),
        idempotency: { leaseMs },
        handlers: {
          ...handlers,
          createCampaign: async (request, services) => {
            if (calls++ === 0) {
              entered();
              await gate;
            }
            return handlers.createCampaign?.(request, services) as never;
          },
        },
      });
      const send = () =>
        slowFirst.fetch(
          new Request('http://localhost/v1/campaigns', {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${api.key}`,
              'Content-Type': 'application/json',
              'Idempotency-Key': 'slow-first',
            },
            body: JSON.stringify({ name: 'Q4 Founders' }),
          }),
        );
      const first = send();
      await inHandler;
      await sleep(leaseMs + 50);
      const second = send();
      // Let the second claim the key (and, on PostgreSQL, create and commit) before the first goes on.
      await sleep(200);
      release();
      const [late, taker] = await Promise.all([first, second]);
      const lateBody = await late.json();
      expect([late.status, lateBody.error]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
      expect(taker.status).toBe(201);
      const created = await taker.json();
      const replay = await send();
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.json()).toEqual(created);
      expect(await campaignCount(api)).toBe(1);
    });
  },
  availableBackends().filter((backend) => backend.name !== 'pglite'),
);
