/**
 * Issue 10, item 1: erasure reaches every copy. A lead whose every personal field holds a
 * unique marker is messaged, replies (a delivery, an event, an attempt), books, gets a deal;
 * after `DELETE /v1/leads/{id}` no marker is left anywhere in the store: every table of the
 * SQL store, found in `information_schema` (a table added later is searched too), and every
 * table of the memory store, walked generically. A delivery pending at the time of the
 * delete is cancelled, listed as such, and never sent; the analytics counts do not move; the
 * request log never holds a marker.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import { createNodeWebhookTransport, type NodeWebhookTransport } from '../../src/node/webhook-transport.ts';
import type { MemoryStore } from '../../src/store/memory/index.ts';
import { MemoryState } from '../../src/store/memory/state.ts';
import { Table } from '../../src/store/memory/table.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { demoAccounts } from '../support/campaign-setup.ts';
import { type LoopbackReceiver, startLoopbackReceiver } from '../support/loopback-receiver.ts';

const start = '2026-11-09T09:00:00.000Z';

/** Unique, lower-case markers (the email index keeps `lower(email)`), one per personal value. */
function markers() {
  const tag = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
  const m = (field: string) => `zq${tag}${field}`;
  return {
    email: `${m('email')}@${m('domain')}.example`,
    first_name: m('first'),
    last_name: m('last'),
    company: m('company'),
    title: m('title'),
    industry: m('industry'),
    website: `https://${m('website')}.example`,
    linkedin_profile: `https://linkedin.com/in/${m('linkedin')}`,
    custom_note: m('customnote'),
    custom_city: m('customcity'),
    reply: `${m('reply')} sounds good, let us talk`,
    all: [] as string[],
  };
}

/** Every stored value of the SQL store as text, table by table: json, jsonb and bytea decoded. */
async function sqlDump(store: SqlStore): Promise<Map<string, string[]>> {
  const columns = await store.client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select c.table_name, c.column_name, c.data_type
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, Array<{ column_name: string; data_type: string }>>();
  for (const column of columns) {
    const list = byTable.get(column.table_name) ?? [];
    list.push(column);
    byTable.set(column.table_name, list);
  }
  const dump = new Map<string, string[]>();
  for (const [table, list] of byTable) {
    const select = list
      .map(({ column_name, data_type }) => {
        const name = `"${column_name}"`;
        // bytea as its bytes (escaped where not printable), everything else in its text form
        // (json and jsonb as JSON text, arrays and composites as literals).
        return data_type === 'bytea' ? `encode(${name}, 'escape')` : `${name}::text`;
      })
      .join(', ');
    const rows = await store.client.query<Record<string, string | null>>(`select ${select} from "${table}"`);
    dump.set(
      table,
      rows.map((row) => Object.values(row).join('\u001f')),
    );
  }
  return dump;
}

/** Every row of every table of the memory store, as JSON text. */
function memoryDump(store: MemoryStore): Map<string, string[]> {
  const dump = new Map<string, string[]>();
  for (const [name, rows] of store.snapshot().tables) {
    dump.set(
      name,
      [...rows.entries()].map(([key, row]) => `${key}\u001f${JSON.stringify(row)}`),
    );
  }
  return dump;
}

function dumpOf(store: Store): Promise<Map<string, string[]>> | Map<string, string[]> {
  return store.kind === 'memory' ? memoryDump(store as MemoryStore) : sqlDump(store as SqlStore);
}

/** `[table, marker, row]` for every marker found, case-insensitively. */
function findMarkers(dump: Map<string, string[]>, values: readonly string[]): Array<[string, string, string]> {
  const found: Array<[string, string, string]> = [];
  const wanted = values.map((v) => v.toLowerCase());
  for (const [table, rows] of dump) {
    for (const row of rows) {
      const text = row.toLowerCase();
      for (const value of wanted) if (text.includes(value)) found.push([table, value, row.slice(0, 400)]);
    }
  }
  return found;
}

describeBackends('erasure reaches every copy', (store, backend) => {
  let api: TestApi;
  let receiver: LoopbackReceiver;
  let transport: NodeWebhookTransport;
  let logs: string[];
  /** How the receiver answers: 503 (the delivery stays pending for a retry) unless changed. */
  let receiverStatus: number;
  let mark: ReturnType<typeof markers>;
  let campaignId: string;
  let leadId: string;

  const ok = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, status = 200) => {
    const answer = await api.call<T>(method, path, body === undefined ? {} : { body });
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const advance = (body: Record<string, unknown>) =>
    ok<{ ran: { steps_run: number; deliveries_attempted: number } }>('POST', '/v1/sandbox/clock/advance', body);
  type Delivery = { status: string; lead_id: string; next_attempt_at: string | null; payload: unknown };
  const deliveries = () =>
    ok<{ total: number; deliveries: Delivery[] }>('GET', `/v1/sandbox/campaigns/${campaignId}/deliveries`);
  const counts = async () => ({
    analysis: await ok<{ analysis: unknown }>('GET', `/v1/campaigns/${campaignId}/analysis`),
    dailyStats: await ok('GET', `/v1/campaigns/${campaignId}/daily-stats`),
    stepFunnel: await ok('GET', `/v1/campaigns/${campaignId}/step-funnel`),
  });

  beforeEach(async () => {
    receiverStatus = 503;
    receiver = await startLoopbackReceiver((_request, response) => {
      response.writeHead(receiverStatus).end();
    });
    transport = createNodeWebhookTransport({ allowInsecure: true, timeoutMs: 5000 });
    logs = [];
    api = await createTestApi(store(), {
      clock: new SandboxClock({ now: () => new Date(start) }),
      config: { sandbox: true, allowInsecureWebhooks: true },
      webhookTransport: transport,
      logger: { log: (entry: LogEntry) => logs.push(JSON.stringify(entry)) },
    });
    mark = markers();
    mark.all = Object.values(mark).filter((v): v is string => typeof v === 'string');

    ({ campaign_id: campaignId } = await ok<{ campaign_id: string }>(
      'POST',
      '/v1/campaigns',
      {
        name: 'Erasure',
        sequence: {
          variation_a: [
            {
              id: 1,
              type: 'email',
              subject: 'For {first_name} {last_name} at {company}',
              content:
                'Hi {first_name}, {title} in {industry} ({website}, {linkedin_profile}, {email}): {custom_note} {custom_city}',
              delay: 0,
            },
            { id: 2, type: 'email', subject: 'Again {first_name}', content: 'Hello {last_name}', delay: 2 },
          ],
        },
      },
      201,
    ));
    const accounts = await demoAccounts(api);
    await ok('PUT', `/v1/campaigns/${campaignId}/senders`, { account_ids: [accounts.email.id] });
    await ok(
      'POST',
      `/v1/campaigns/${campaignId}/webhooks`,
      { webhook_url: `${receiver.origin}/hooks/ocs`, secret: 'whsec_erasure_0123456789' },
      201,
    );
    const created = await ok<{ lead: { id: string } }>(
      'POST',
      '/v1/leads',
      {
        email: mark.email,
        first_name: mark.first_name,
        last_name: mark.last_name,
        company: mark.company,
        title: mark.title,
        industry: mark.industry,
        website: mark.website,
        linkedin_profile: mark.linkedin_profile,
        annual_revenue: 4_200_000,
        employee_count: 42,
        custom_fields: { custom_note: mark.custom_note, custom_city: mark.custom_city },
        campaign_id: campaignId,
      },
      201,
    );
    leadId = created.lead.id;
    await ok('PATCH', `/v1/campaigns/${campaignId}`, { is_active: true });
  });

  afterEach(async () => {
    transport.close();
    await receiver.close();
  });

  /** The first step sent (a recorded sandbox message), opened, a meeting booked, a deal. */
  /** The lead replies by email: an event with its text, and a delivery in the outbox. */
  async function reply(): Promise<void> {
    await ok(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/replies`,
      { lead_id: leadId, channel: 'email', message: mark.reply },
      201,
    );
  }

  async function engage(): Promise<void> {
    expect((await advance({ seconds: 1 })).ran.steps_run).toBe(1);
    await ok('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, { lead_id: leadId, kind: 'email_opened' }, 201);
    await ok(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/engagements`,
      {
        lead_id: leadId,
        kind: 'meeting_booked',
        start_time: '2026-11-12T15:00:00+00:00',
        invitee_name: `${mark.first_name} ${mark.last_name}`,
      },
      201,
    );
    await ok(
      'POST',
      '/v1/crm/deals',
      {
        name: `${mark.company} expansion with ${mark.first_name} ${mark.last_name}`,
        lead_id: leadId,
        value: 12000,
        notes: `Call ${mark.first_name} at ${mark.email}; see ${mark.linkedin_profile}`,
        custom_fields: { contact: mark.email, city: mark.custom_city, seats: 12 },
        metadata: { source: `${mark.website}/pricing`, title: mark.title },
      },
      201,
    );
  }

  it('leaves no personal value of the lead in any table of the store', async () => {
    await engage();
    // A reply: an event with its text, a delivery whose first attempt fails (503), so the
    // outbox holds its body and an attempt, and a retry is pending when the lead is deleted.
    await reply();
    expect((await advance({ seconds: 1 })).ran.deliveries_attempted).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.body.toString()).toContain(mark.email);
    // A stored answer for replay that carries the lead (no idempotent operation answers a
    // lead today; one that did would store it like this).
    const claim = {
      organization_id: api.organizationId,
      key: 'erasure-replay',
      fingerprint: 'f'.repeat(64),
      state: 'in_progress' as const,
      locked_until: start,
      response_status: null,
      response_body: null,
      created_at: start,
      expires_at: '2099-01-01T00:00:00.000Z',
    };
    expect((await store().idempotency.claim(claim, start)).outcome).toBe('claimed');
    const lead = await ok<{ lead: unknown }>('GET', `/v1/leads/${leadId}`);
    expect(await store().idempotency.complete(claim, 200, JSON.stringify(lead))).toBe(true);
    // A lookup by email: the query string must not reach the request log.
    await ok('GET', `/v1/leads?email=${encodeURIComponent(mark.email)}`);

    const before = findMarkers(await dumpOf(store()), mark.all);
    const tablesWithMarkers = new Set(before.map(([table]) => table));
    // The enumeration itself works: it sees the copies the erasure must reach.
    expect(tablesWithMarkers.size, JSON.stringify([...tablesWithMarkers])).toBeGreaterThanOrEqual(7);

    const deleted = await api.call('DELETE', `/v1/leads/${leadId}`);
    expect(deleted.status).toBe(200);

    const dump = await dumpOf(store());
    if (backend !== 'memory') {
      // Every table of the schema was searched, whatever it is.
      expect(dump.size).toBeGreaterThanOrEqual(20);
    }
    expect(findMarkers(dump, mark.all)).toEqual([]);
    // Every read leaves the lead out.
    expect((await api.call('GET', `/v1/leads/${leadId}`)).status).toBe(404);
    for (const path of [
      `/v1/sandbox/campaigns/${campaignId}/deliveries`,
      `/v1/sandbox/campaigns/${campaignId}/messages`,
      `/v1/campaigns/${campaignId}/bookings`,
      '/v1/crm/deals',
      `/v1/leads?email=${encodeURIComponent(mark.email)}`,
    ]) {
      const answer = await ok('GET', path);
      expect(findMarkers(new Map([[path, [JSON.stringify(answer)]]]), mark.all)).toEqual([]);
    }
    // The retry that was due never goes out.
    receiverStatus = 204;
    expect((await advance({ seconds: 20 * 60 })).ran.deliveries_attempted).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    // The request log never held a personal value.
    expect(findMarkers(new Map([['log', logs]]), mark.all)).toEqual([]);
  });

  it('cancels a delivery pending at the time of the delete: never sent, listed as cancelled', async () => {
    await engage();
    await reply();
    // Not yet attempted: the reply's delivery is pending, due now.
    expect((await deliveries()).deliveries.map((d) => d.status)).toEqual(['pending']);
    const countsBefore = await counts();

    expect((await api.call('DELETE', `/v1/leads/${leadId}`)).status).toBe(200);

    const listed = await deliveries();
    expect(listed.deliveries).toHaveLength(1);
    expect(listed.deliveries[0]).toMatchObject({ status: 'cancelled', lead_id: leadId, next_attempt_at: null });
    expect(findMarkers(new Map([['payload', [JSON.stringify(listed.deliveries[0]?.payload)]]]), mark.all)).toEqual([]);
    receiverStatus = 204;
    expect((await advance({ days: 3 })).ran.deliveries_attempted).toBe(0);
    expect(receiver.requests).toHaveLength(0);
    expect((await deliveries()).deliveries.map((d) => d.status)).toEqual(['cancelled']);
    // Counts stay as they were (analytics count the anonymised row's activity).
    expect(await counts()).toEqual(countsBefore);
  });

  it('keeps the counts of every analytics report as they were', async () => {
    await engage();
    await reply();
    receiverStatus = 204;
    expect((await advance({ seconds: 1 })).ran.deliveries_attempted).toBe(1);
    const before = await counts();
    expect(JSON.stringify(before.analysis)).toContain('"replied":1');
    expect((await api.call('DELETE', `/v1/leads/${leadId}`)).status).toBe(200);
    expect(await counts()).toEqual(before);
    // The delivered event stays delivered, its body anonymised.
    const listed = await deliveries();
    expect(listed.deliveries.map((d) => d.status)).toEqual(['delivered']);
    expect(findMarkers(new Map([['payload', [JSON.stringify(listed.deliveries)]]]), mark.all)).toEqual([]);
  });

  if (backend === 'memory') {
    it('walks every collection of the memory store (each one is a Table the snapshot reads)', () => {
      const state = new MemoryState();
      for (const [name, value] of Object.entries(state)) {
        // Not collections: the transaction's journal and the data version (a counter).
        if (name === 'journal' || name === 'version') continue;
        expect([name, value instanceof Table]).toEqual([name, true]);
      }
    });
  }
});
