/**
 * An erasure takes the lead's row before its enrolments, the order every writer of a lead
 * takes them in (domain/erasure.ts, decision 0003 "One lock order"). It took the enrolments
 * first: waiting for the row, it held them, and a second erasure of the lead, or a create
 * enrolling it in another campaign, that held the row and came to an enrolment ended in
 * `deadlock detected` and a 500 (an attack: four requests at once, 1 to 3 tries in 100).
 *
 * PostgreSQL only: two transactions at once need two connections (PGlite has one).
 * Deterministic: a transaction holds the lead's row, the erasure is sent and waits for it,
 * and another transaction then asks for the lead's enrolments without waiting.
 */
import { expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { createTestApi } from '../support/api.ts';
import { availableBackends, describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence } from '../support/campaign-setup.ts';

/** Resolves once `check` holds, polled every 20 ms; rejects after `ms`. */
async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const postgres = availableBackends().filter((backend) => backend.name === 'postgres');

describeBackends(
  'erasure lock order',
  (store) => {
    it("holds none of the lead's enrolments while it waits for the lead's row", async () => {
      const api = await createTestApi(store());
      const first = await createCampaign(api, { sequence: emailSequence(1) });
      const second = await createCampaign(api, { sequence: emailSequence(1) });
      const created = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
        body: { email: 'maya@acme-robotics.example', campaign_id: first },
      });
      const leadId = created.body.lead.id;
      await api.call('POST', '/v1/leads', { body: { email: 'maya@acme-robotics.example', campaign_id: second } });
      const { client } = store() as SqlStore;

      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      // A writer of the lead (a create enrolling it elsewhere) holds its row.
      const holder = client.transaction(async (tx) => {
        await tx.query('select 1 from leads where id = $1 for share', [leadId]);
        holding();
        await released;
      });
      await held;
      try {
        const deleting = api.call('DELETE', `/v1/leads/${leadId}`);
        // The erasure waits for the row: it holds the row's tuple lock while it does.
        await until(async () => {
          const [row] = await client.query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_locks where locktype = 'tuple' and relation = 'leads'::regclass`,
          );
          return (row?.waiting ?? 0) > 0;
        });
        // Another writer can take every enrolment of the lead at once: the erasure holds none.
        const enrolments = await client.transaction(async (tx) =>
          tx.query('select id from enrolments where lead_id = $1 order by id for update nowait', [leadId]),
        );
        expect(enrolments).toHaveLength(2);
        release();
        await holder;
        expect((await deleting).status).toBe(200);
      } finally {
        release();
        await holder;
      }
      expect((await api.call('GET', `/v1/leads/${leadId}`)).status).toBe(404);
    });

    it('answers two erasures and a create of the lead at once without a 500', { timeout: 60_000 }, async () => {
      // Some 200 requests a minute: above the default limits, which this test is not about.
      const api = await createTestApi(store(), { rateLimits: { perEndpoint: 1_000, total: 1_000 } });
      const first = await createCampaign(api, { sequence: emailSequence(1) });
      const second = await createCampaign(api, { sequence: emailSequence(1) });
      for (let attempt = 0; attempt < 40; attempt++) {
        const email = `lead-${attempt}@acme-robotics.example`;
        const created = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
          body: { email, campaign_id: first },
        });
        const leadId = created.body.lead.id;
        const statuses = (
          await Promise.all([
            api.call('DELETE', `/v1/leads/${leadId}?campaign_id=${first}`),
            api.call('POST', '/v1/leads', { body: { email, campaign_id: second } }),
            api.call('DELETE', `/v1/leads/${leadId}`),
            api.call('DELETE', `/v1/leads/${leadId}`),
          ])
        ).map((answer) => answer.status);
        expect(statuses.filter((status) => status >= 500)).toEqual([]);
        // One erasure erased it; the other found it gone (or the create made a new lead of the email).
        expect(statuses.slice(2).sort()).toEqual([200, 404]);
      }
    });
  },
  postgres,
);
