/**
 * The SQL `prospect_response` outbox. A claim is one `UPDATE` over rows picked with
 * `FOR UPDATE SKIP LOCKED`, so workers in several processes never take the same delivery;
 * a completion is one statement, so its attempt rows and the delivery's move commit together.
 */
import type { DeliveryAttemptRecord, DeliveryRecord } from '../records.ts';
import type { DeliveryClaimState, DeliveryStore, DeliveryWithAttempts } from '../types.ts';
import type { SqlClient } from './client.ts';
import { insertRow, listPage } from './rows.ts';
import { cancelledReason } from '../memory/deliveries.ts';

export function sqlDeliveries(client: SqlClient): DeliveryStore {
  return {
    async enqueue(record) {
      await insertRow(client, 'deliveries', record);
    },
    async claimDue({ now, limit, workerId, realNow, leaseUntil, dueAgainAt }) {
      // `materialized`: the locked rows are picked once, then updated; the attempt number is
      // taken in the same statement, so two claims never share one. Off the sandbox a live
      // claim's `next_attempt_at` is its lease's end, still ahead: the lease test costs nothing.
      const rows = await client.query<DeliveryRecord>(
        `with due as materialized (
           select id from deliveries
            where status = 'pending' and next_attempt_at <= $1 and (lease_until is null or lease_until <= $5)
            order by next_attempt_at, id
            limit $2
            for update skip locked
         )
         update deliveries d
            set attempts_made = d.attempts_made + 1, lease_owner = $3, lease_until = $4, next_attempt_at = $6
           from due
          where d.id = due.id
         returning d.*`,
        [now, limit, workerId, leaseUntil, realNow, dueAgainAt],
      );
      return rows.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1));
    },
    async completeAttempts(completions) {
      if (completions.length === 0) return [];
      const moves = completions.map((c) => ({
        delivery_id: c.delivery_id,
        worker_id: c.worker_id,
        attempt: c.attempt,
        status: c.outcome.status,
        at: c.outcome.at,
        attempts_made: c.attempts_made,
        last_error: c.last_error,
      }));
      const attempts = completions.flatMap((c) =>
        c.attempts.map((a) => ({ ...a, duration_ms: Math.round(a.duration_ms) })),
      );
      // The attempt rows are kept whether or not the claim still holds (the requests were
      // sent); `on conflict do nothing` makes completing twice harmless.
      const rows = await client.query<{ id: string }>(
        `with input as (
           select * from jsonb_to_recordset($1::jsonb) as i (
             delivery_id uuid, worker_id text, attempt integer, status text, at timestamptz,
             attempts_made integer, last_error text)
         ), recorded as (
           insert into delivery_attempts (delivery_id, attempt, webhook_id, url, started_at, ok, status, duration_ms, error)
           select a.delivery_id, a.attempt, a.webhook_id, a.url, a.started_at, a.ok, a.status, a.duration_ms, a.error
             from jsonb_to_recordset($2::jsonb) as a (
               delivery_id uuid, attempt integer, webhook_id uuid, url text, started_at timestamptz, ok boolean,
               status integer, duration_ms integer, error text)
           on conflict do nothing
         )
         update deliveries d
            set status = i.status,
                attempts_made = case when d.lease_owner = i.worker_id and d.attempts_made = i.attempt
                                     then i.attempts_made else d.attempts_made end,
                next_attempt_at = case when i.status = 'pending' then i.at end,
                delivered_at = case when i.status = 'delivered' then i.at end,
                failed_at = case when i.status = 'failed' then i.at end,
                last_error = i.last_error,
                lease_owner = null,
                lease_until = null
           from input i
          where d.id = i.delivery_id
            and d.status = 'pending'
            and ((d.lease_owner = i.worker_id and d.attempts_made = i.attempt) or i.status = 'delivered')
         returning d.id`,
        [JSON.stringify(moves), JSON.stringify(attempts)],
      );
      return rows.map((row) => row.id);
    },
    async get(id) {
      const [row] = await client.query<DeliveryRecord>('select * from deliveries where id = $1', [id]);
      return row ?? null;
    },
    async readClaims(ids) {
      if (ids.length === 0) return [];
      // A primary-key lookup per ID, in one statement; the body stays in the table.
      return client.query<DeliveryClaimState>(
        'select id, status, lease_owner, attempts_made from deliveries where id = any($1::uuid[])',
        [ids],
      );
    },
    async listAttempts(deliveryId) {
      return client.query<DeliveryAttemptRecord>(
        'select * from delivery_attempts where delivery_id = $1 order by attempt, started_at, webhook_id',
        [deliveryId],
      );
    },
    async listForCampaign(campaignId, page) {
      const { items, total } = await listPage<DeliveryRecord>(
        client,
        {
          from: 'deliveries',
          where: 'campaign_id = $1',
          params: [campaignId],
          orderBy: 'created_at, id',
          // The event's bytes, read from the value's header. Attempts are not counted: each is
          // a few short fields (a status, a duration, a transport error).
          textBytes: 'octet_length(body)',
        },
        page,
      );
      if (items.length === 0) return { items: [], total };
      const attempts = await client.query<DeliveryAttemptRecord>(
        `select * from delivery_attempts where delivery_id = any($1::uuid[])
          order by delivery_id, attempt, started_at, webhook_id`,
        [items.map((d) => d.id)],
      );
      const byDelivery = new Map<string, DeliveryAttemptRecord[]>();
      for (const attempt of attempts) {
        const list = byDelivery.get(attempt.delivery_id) ?? [];
        list.push(attempt);
        byDelivery.set(attempt.delivery_id, list);
      }
      return {
        items: items.map((d): DeliveryWithAttempts => ({ ...d, attempts: byDelivery.get(d.id) ?? [] })),
        total,
      };
    },
    async nextDueAt({ liveClaimsAt } = {}) {
      const [row] = await client.query<{ at: string | null }>(
        `select min(next_attempt_at) as at from deliveries
          where status = 'pending' and ($1::timestamptz is null or lease_until is null or lease_until <= $1)`,
        [liveClaimsAt ?? null],
      );
      return row?.at ?? null;
    },
    async eraseLead(organizationId, leadId, { at, anonymise }) {
      // Locked while the new bodies are made, so that a claim or a completion waits for the
      // erasure (and then finds the delivery cancelled) rather than overtaking it.
      const rows = await client.query<{ id: string; body: string }>(
        'select id, body from deliveries where organization_id = $1 and lead_id = $2 order by id for update',
        [organizationId, leadId],
      );
      if (rows.length === 0) return;
      await client.query(
        `update deliveries d
            set body = e.body,
                status = case when d.status = 'pending' then 'cancelled' else d.status end,
                cancelled_at = case when d.status = 'pending' then $3::timestamptz else d.cancelled_at end,
                next_attempt_at = case when d.status = 'pending' then null else d.next_attempt_at end,
                last_error = case when d.status = 'pending' then $4 else d.last_error end,
                lease_owner = case when d.status = 'pending' then null else d.lease_owner end,
                lease_until = case when d.status = 'pending' then null else d.lease_until end
           from unnest($1::uuid[], $2::text[]) as e (id, body)
          where d.id = e.id`,
        [rows.map((row) => row.id), rows.map((row) => anonymise(row.body)), at, cancelledReason],
      );
    },
  };
}
