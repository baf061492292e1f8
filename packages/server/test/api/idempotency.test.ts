/**
 * `Idempotency-Key` on create campaign: replay, reuse with another body, a request still
 * running, failures that free the key, and many identical creates at once (also through two
 * servers on one store, as two processes would be).
 */
import { expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { handlers } from '../../src/routes/index.ts';
import { checkAgainstDocument, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

const create = (name = 'Idempotent') => ({ name, description: 'once' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeBackends('idempotency keys', (store, backend) => {
  it('replays the original answer and creates one campaign', async () => {
    const api = await createTestApi(store());
    const headers = { 'Idempotency-Key': 'create-1' };
    const first = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', { body: create(), headers });
    const again = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', {
      body: { description: 'once', name: 'Idempotent' },
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('idempotency-key')).toBe('create-1');
    const list = await api.call<{ total: number }>('GET', '/v1/campaigns');
    expect(list.body.total).toBe(1);
  });

  it('refuses the same key with a different request', async () => {
    const api = await createTestApi(store());
    const headers = { 'Idempotency-Key': 'create-2' };
    await api.call('POST', '/v1/campaigns', { body: create('A'), headers });
    const reused = await api.call<{ error: string }>('POST', '/v1/campaigns', { body: create('B'), headers });
    expect([reused.status, reused.body.error]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('scopes keys to the organization', async () => {
    const api = await createTestApi(store());
    const other = await createTestApi(store());
    const headers = { 'Idempotency-Key': 'shared-key' };
    const mine = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', { body: create(), headers });
    const theirs = await other.call<{ campaign_id: string }>('POST', '/v1/campaigns', { body: create(), headers });
    expect(theirs.status).toBe(201);
    expect(theirs.body.campaign_id).not.toBe(mine.body.campaign_id);
  });

  it('replays a client error, and frees the key after a server failure', async () => {
    const api = await createTestApi(store());
    const invalid = { name: 'x', sequence: { variation_a: [{ id: 1, type: 'email' }] } };
    const first = await api.call('POST', '/v1/campaigns', { body: invalid, headers: { 'Idempotency-Key': 'bad-1' } });
    const again = await api.call('POST', '/v1/campaigns', { body: invalid, headers: { 'Idempotency-Key': 'bad-1' } });
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.body).toEqual(first.body);

    let failures = 1;
    const flaky = createApp({
      store: store(),
      handlers: {
        ...handlers,
        createCampaign: async (request, services) => {
          if (failures-- > 0) throw new Error('database went away');
          return handlers.createCampaign?.(request, services) as never;
        },
      },
    });
    const send = () =>
      flaky.fetch(
        new Request('http://localhost/v1/campaigns', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${api.key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'k-500',
          },
          body: JSON.stringify(create()),
        }),
      );
    expect((await send()).status).toBe(500);
    expect((await send()).status).toBe(201);
  });

  it('answers IDEMPOTENCY_IN_PROGRESS with Retry-After while the first request runs', async () => {
    const api = await createTestApi(store());
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = createApp({
      store: store(),
      handlers: {
        ...handlers,
        createCampaign: async (request, services) => {
          await gate;
          return handlers.createCampaign?.(request, services) as never;
        },
      },
    });
    const send = () =>
      slow.fetch(
        new Request('http://localhost/v1/campaigns', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${api.key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'slow',
          },
          body: JSON.stringify(create()),
        }),
      );
    const first = send();
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (backend === 'pglite') {
      // PGlite runs one transaction at a time and no statement beside it, and the first
      // request's handler runs in its transaction (decision 0020): the repeat waits for it to
      // commit, then replays its answer.
      const repeat = send();
      const early = await Promise.race([repeat.then(() => 'answered'), sleep(200).then(() => 'waiting')]);
      expect(early).toBe('waiting');
      release();
      expect((await first).status).toBe(201);
      expect((await repeat).headers.get('idempotent-replayed')).toBe('true');
      return;
    }
    const second = await send();
    const body = await second.json();
    checkAgainstDocument('POST', '/v1/campaigns', second, body);
    expect([second.status, body.error]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    release();
    expect((await first).status).toBe(201);
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');
  });

  it('gives one campaign for many identical creates at once, through two servers', async () => {
    const api = await createTestApi(store());
    const second = createApp({ store: store() });
    const attempts = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? api.app : second).fetch(
        new Request('http://localhost/v1/campaigns', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${api.key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'burst',
          },
          body: JSON.stringify(create()),
        }),
      ),
    );
    const answers = await Promise.all(attempts);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    const created = bodies.filter((_, i) => answers[i]?.status === 201);
    const inProgress = bodies.filter((_, i) => answers[i]?.status === 409);
    expect(created.length + inProgress.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((body) => body.campaign_id)).size).toBe(1);
    expect(inProgress.every((body) => body.error === 'IDEMPOTENCY_IN_PROGRESS')).toBe(true);
    const list = await api.call<{ total: number }>('GET', '/v1/campaigns');
    expect(list.body.total).toBe(1);
  });

  it('refuses keys longer than 255 characters', async () => {
    const api = await createTestApi(store());
    const answer = await api.call<{ error: string; details: { errors: Array<{ field: string }> } }>(
      'POST',
      '/v1/campaigns',
      {
        body: create(),
        headers: { 'Idempotency-Key': 'k'.repeat(256) },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors[0]?.field).toBe('header.Idempotency-Key');
  });
});
