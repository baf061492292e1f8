/**
 * `cacheAnswers` (the mock's leads page kept as its JSON text, `http/middleware/answer-cache.ts`):
 * a kept page is never served after any change of the store's data (through the API, straight
 * to the store, undone by a rollback, a restore), nor to another organization; and a request
 * for it is still authenticated, counted, validated and given its own headers.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore, type MemoryStore } from '../../src/store/memory/index.ts';
import type { LeadRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { answerCache } from '../../src/http/middleware/answer-cache.ts';
import type { RequestContext } from '../../src/http/middleware/context.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { leadRecord as leadFixture, steppingClock } from '../support/lead-fixtures.ts';

interface LeadPage {
  leads: Array<{ id: string; email: string | null; first_name: string | null }>;
  total: number;
}

const page = async (api: TestApi, query = '?limit=20', key?: string) =>
  api.call<LeadPage>('GET', `/v1/leads${query}`, key === undefined ? {} : { key });
const emails = (answer: { body: LeadPage }) => answer.body.leads.map((lead) => lead.email);

async function cachedApi(store: Store = createMemoryStore()): Promise<TestApi> {
  const api = await createTestApi(store, { clock: steppingClock(), cacheAnswers: true });
  for (const email of ['a@example.com', 'b@example.com']) {
    expect((await api.call('POST', '/v1/leads', { body: { email } })).status).toBe(201);
  }
  return api;
}

/** A lead written straight to the store, newest of all (first on the page). */
const leadRecord = (api: TestApi, email: string): LeadRecord =>
  leadFixture(api.organizationId, { email, first_name: null, created_at: '2099-01-01T00:00:00.000Z' });

describe('a kept page is never served after a change', () => {
  it('serves the same text again while nothing changes', async () => {
    const api = await cachedApi();
    const first = await page(api);
    const second = await page(api);
    expect(second.body).toEqual(first.body);
    expect(emails(second)).toEqual(['b@example.com', 'a@example.com']);
  });

  it('after a create, an update and a delete through the API', async () => {
    const api = await cachedApi();
    await page(api);
    const created = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', { body: { email: 'c@example.com' } });
    expect(emails(await page(api))).toEqual(['c@example.com', 'b@example.com', 'a@example.com']);

    await api.call('PATCH', `/v1/leads/${created.body.lead.id}`, { body: { first_name: 'Cleo' } });
    expect((await page(api)).body.leads[0]?.first_name).toBe('Cleo');

    expect((await api.call('DELETE', `/v1/leads/${created.body.lead.id}`)).status).toBe(200);
    const after = await page(api);
    expect(emails(after)).toEqual(['b@example.com', 'a@example.com']);
    expect(after.body.total).toBe(2);
  });

  it('after a write straight to the store, and after a restore', async () => {
    const store = createMemoryStore();
    const api = await cachedApi(store);
    const snapshot = store.snapshot();
    const seeded = await page(api);
    await store.leads.insert(leadRecord(api, 'direct@example.com'));
    expect(emails(await page(api))[0]).toBe('direct@example.com');

    store.restore(snapshot);
    expect((await page(api)).body).toEqual(seeded.body);
  });

  it('after a write that a rollback undid', async () => {
    const store = createMemoryStore();
    const api = await cachedApi(store);
    await page(api);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A transaction that writes, waits, then fails: the page read meanwhile shows its lead.
    const failing = store
      .transaction(async (tx) => {
        await tx.leads.insert(leadRecord(api, 'uncommitted@example.com'));
        await held;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(emails(await page(api))[0]).toBe('uncommitted@example.com');
    release();
    await failing;
    expect(emails(await page(api))).toEqual(['b@example.com', 'a@example.com']);
  });

  it('a page read across a write is not kept', async () => {
    const store = createMemoryStore();
    let pause: Promise<void> | undefined;
    let reached: () => void = () => undefined;
    const heldThere = new Promise<void>((resolve) => (reached = resolve));
    // The first list waits after reading the leads, before its enrolments are read.
    const paused: MemoryStore = {
      ...store,
      leads: {
        ...store.leads,
        async list(...args) {
          const result = await store.leads.list(...args);
          if (pause) {
            reached();
            await pause;
          }
          return result;
        },
      },
    };
    const api = await cachedApi(paused);
    let resume: () => void = () => undefined;
    pause = new Promise<void>((resolve) => (resume = resolve));
    const slow = page(api);
    // Held once it has read the leads (however long a loaded machine takes to get there).
    await heldThere;
    pause = undefined;
    await store.leads.insert(leadRecord(api, 'meanwhile@example.com'));
    // A request that starts and ends while the first is held: it sees the new lead.
    expect(emails(await page(api))[0]).toBe('meanwhile@example.com');
    resume();
    expect(emails(await slow)).toEqual(['b@example.com', 'a@example.com']);
    // The held request's page, older than the data, was not kept in place of the newer one.
    expect(emails(await page(api))[0]).toBe('meanwhile@example.com');
  });
});

describe('a request for a kept page', () => {
  it('is still validated, authenticated and scoped to its organization', async () => {
    const store = createMemoryStore();
    const api = await cachedApi(store);
    await page(api);
    const invalid = await page(api, '?limit=0');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect((await page(api, '?limit=20', 'ocs_not_a_key')).status).toBe(401);

    const other = await seedDemoOrganization(store, { name: 'Other' });
    const theirs = await page(api, '?limit=20', other.apiKey);
    expect(theirs.status).toBe(200);
    expect(emails(theirs)).toEqual([]);
  });

  it('is counted against the rate limit and gets its own request ID', async () => {
    const api = await cachedApi();
    const answers = [await page(api), await page(api), await page(api)];
    const remaining = answers.map((answer) => Number(answer.headers.get('ratelimit-remaining')));
    expect(remaining[1]).toBe((remaining[0] ?? 0) - 1);
    expect(remaining[2]).toBe((remaining[0] ?? 0) - 2);
    expect(new Set(answers.map((answer) => answer.headers.get('x-request-id'))).size).toBe(3);
  });
});

it('needs the memory store: another store cannot tell when its data changes', () => {
  const store = { ...createMemoryStore(), kind: 'pglite' } as unknown as Store;
  expect(() => createApp({ store, cacheAnswers: true })).toThrow(/cacheAnswers needs the memory store/);
});

describe('a kept page is dropped by the write itself', () => {
  // A kept page is a copy of personal data: an erasure must not leave it in memory until the
  // next read of the page. The data's version is held still here, so that only the write's
  // notice can drop the page.
  const context = () =>
    ({
      operation: { operationId: 'listLeads' },
      url: new URL('http://localhost/v1/leads?limit=20'),
      auth: { organization: { id: 'org' } },
    }) as unknown as RequestContext;

  it('drops every kept answer as the store tells of a change, before any read', async () => {
    const listeners: Array<() => void> = [];
    const step = answerCache({ version: () => 1, onChange: (listener) => listeners.push(listener) });
    let built = 0;
    const handler = (ctx: RequestContext) => async () => {
      built++;
      ctx.answer = { status: 200, body: '{"leads":[{"email":"erased@example.com"}]}', headers: {} };
    };
    const first = context();
    await step(first, handler(first));
    const second = context();
    await step(second, handler(second));
    expect(built).toBe(1);

    for (const listener of listeners) listener();
    const third = context();
    await step(third, handler(third));
    expect(built).toBe(2);
  });

  it('the memory store tells of every change as it happens, inside a transaction too', async () => {
    const store = createMemoryStore();
    const api = await cachedApi(store);
    let heard = 0;
    store.onDataChange(() => heard++);
    await store.leads.insert(leadRecord(api, 'direct@example.com'));
    expect(heard).toBe(1);
    const before = heard;
    await store
      .transaction(async (tx) => {
        await tx.leads.insert(leadRecord(api, 'tx@example.com'));
        expect(heard).toBeGreaterThan(before);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(heard).toBeGreaterThan(before + 1);
  });
});
