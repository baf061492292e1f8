/**
 * The memory store's `prospect_response` outbox. One row per delivery, carrying its attempts,
 * so that dropping a finished delivery is one delete. Timestamps are kept in the ISO `Z` form
 * the SQL store reads back, so that they compare as text.
 *
 * The memory store runs the mock and fast tests, for days: it keeps every pending delivery but
 * only the newest `finishedDeliveriesKept` finished ones (delivered or failed), so that its
 * memory stays flat however many replies it delivers. PostgreSQL and PGlite keep every row.
 */
import type { DeliveryAttemptRecord, DeliveryRecord } from '../records.ts';
import type { DeliveryCompletion, DeliveryStore, DeliveryWithAttempts } from '../types.ts';
import { takeWithinBytes, utf8Length } from '../page-bytes.ts';
import type { MemoryState } from './state.ts';
import { compareText, paginate } from './table.ts';

/** `last_error` of a delivery cancelled by its lead's erasure. */
export const cancelledReason = 'cancelled: the lead was deleted before the delivery was made';

/** Finished deliveries the memory store keeps for the operator; older ones are dropped. */
export const finishedDeliveriesKept = 10_000;
/** Dropping scans the table: do it once per this many finished deliveries, not every time. */
const pruneEvery = 1_000;

const iso = (instant: string) => new Date(instant).toISOString();
const isoOrNull = (instant: string | null) => (instant === null ? null : iso(instant));

function withoutAttempts(row: DeliveryWithAttempts): DeliveryRecord {
  const { attempts, ...record } = row;
  void attempts;
  return record;
}

const byAttempt = (a: DeliveryAttemptRecord, b: DeliveryAttemptRecord) =>
  a.attempt - b.attempt || compareText(a.started_at, b.started_at) || compareText(a.webhook_id, b.webhook_id);

const oldestFirst = (a: DeliveryRecord, b: DeliveryRecord) =>
  compareText(a.created_at, b.created_at) || compareText(a.id, b.id);

/** Pending and due by `dueBy` (the schedule's clock). */
const dueNow = (row: DeliveryRecord, dueBy: string): row is DeliveryRecord & { next_attempt_at: string } =>
  row.status === 'pending' && row.next_attempt_at !== null && row.next_attempt_at <= dueBy;

/** Claimed by no live lease at `realNow` (a lease is counted in real time). */
const unclaimedAt = (row: DeliveryRecord, realNow: string) => row.lease_until === null || row.lease_until <= realNow;

interface Due {
  at: string;
  id: string;
}

const byDue = (a: Due, b: Due) => compareText(a.at, b.at) || compareText(a.id, b.id);

/**
 * The `limit` earliest of the due deliveries offered, kept sorted. A claim scans the whole
 * outbox for a few dozen rows: rather than sort every due row, each is compared with the
 * latest kept, which rejects most at once (rows mostly come in due order).
 */
function earliestFirst(limit: number) {
  const items: Due[] = [];
  return {
    items,
    offer(due: Due) {
      const last = items.at(-1);
      if (items.length >= limit && (last === undefined || byDue(due, last) >= 0)) return;
      let low = 0;
      let high = items.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (byDue(items[mid] as Due, due) <= 0) low = mid + 1;
        else high = mid;
      }
      items.splice(low, 0, due);
      if (items.length > limit) items.pop();
    },
  };
}

export function memoryDeliveries(state: MemoryState): DeliveryStore {
  const table = state.deliveries;
  let finishedSincePrune = 0;

  // Drops the oldest finished deliveries beyond what is kept. Rows are visited in insertion
  // (enqueue) order, so the first finished ones met are the oldest.
  const prune = () => {
    finishedSincePrune = 0;
    const finished: string[] = [];
    table.scan((row, key) => {
      if (row.status !== 'pending') finished.push(key);
    });
    for (const key of finished.slice(0, Math.max(0, finished.length - finishedDeliveriesKept))) table.delete(key);
  };

  const complete = (completion: DeliveryCompletion): boolean => {
    const row = table.get(completion.delivery_id);
    if (row === undefined) return false;
    const seen = new Set(row.attempts.map((a) => `${a.attempt}/${a.webhook_id}`));
    for (const attempt of completion.attempts) {
      // The SQL key (delivery_id, attempt, webhook_id): completing twice records once.
      if (seen.has(`${attempt.attempt}/${attempt.webhook_id}`)) continue;
      row.attempts.push({
        ...attempt,
        started_at: iso(attempt.started_at),
        duration_ms: Math.round(attempt.duration_ms),
      });
    }
    const { status, at } = completion.outcome;
    const holdsClaim = row.lease_owner === completion.worker_id && row.attempts_made === completion.attempt;
    const moves = row.status === 'pending' && (holdsClaim || status === 'delivered');
    if (moves) {
      Object.assign(row, {
        status,
        attempts_made: holdsClaim ? completion.attempts_made : row.attempts_made,
        next_attempt_at: status === 'pending' ? iso(at) : null,
        delivered_at: status === 'delivered' ? iso(at) : null,
        failed_at: status === 'failed' ? iso(at) : null,
        last_error: completion.last_error,
        lease_owner: null,
        lease_until: null,
      });
      if (status !== 'pending') finishedSincePrune += 1;
    }
    table.set(row.id, row);
    return moves;
  };

  return {
    async enqueue(record) {
      table.set(record.id, {
        ...record,
        created_at: iso(record.created_at),
        next_attempt_at: isoOrNull(record.next_attempt_at),
        delivered_at: isoOrNull(record.delivered_at),
        failed_at: isoOrNull(record.failed_at),
        lease_until: isoOrNull(record.lease_until),
        cancelled_at: isoOrNull(record.cancelled_at ?? null),
        attempts: [],
      });
    },
    async claimDue({ now, limit, workerId, realNow, leaseUntil, dueAgainAt }) {
      const dueBy = iso(now);
      const lapsedBy = iso(realNow);
      const due = earliestFirst(Math.max(0, limit));
      table.scan((row) => {
        if (dueNow(row, dueBy) && unclaimedAt(row, lapsedBy)) due.offer({ at: row.next_attempt_at, id: row.id });
      });
      const until = iso(leaseUntil);
      const claimed: DeliveryRecord[] = [];
      for (const { id } of due.items) {
        const row = table.get(id);
        if (row === undefined) continue;
        const taken = {
          ...row,
          attempts_made: row.attempts_made + 1,
          lease_owner: workerId,
          lease_until: until,
          next_attempt_at: iso(dueAgainAt),
        };
        table.set(id, taken);
        claimed.push(withoutAttempts(taken));
      }
      return claimed;
    },
    async completeAttempts(completions) {
      const moved = completions.filter(complete).map((c) => c.delivery_id);
      if (finishedSincePrune >= pruneEvery) prune();
      return moved;
    },
    async get(id) {
      const row = table.get(id);
      return row === undefined ? null : withoutAttempts(row);
    },
    async readClaims(ids) {
      return ids.flatMap((id) => {
        const row = table.get(id);
        return row === undefined
          ? []
          : [{ id, status: row.status, lease_owner: row.lease_owner, attempts_made: row.attempts_made }];
      });
    },
    async listAttempts(deliveryId) {
      return (table.get(deliveryId)?.attempts ?? []).sort(byAttempt);
    },
    async listForCampaign(campaignId, page) {
      const rows = table.where((d) => d.campaign_id === campaignId).sort(oldestFirst);
      const { items, total } = paginate(rows, page);
      const within = takeWithinBytes(items, (row) => utf8Length(row.body), page.maxTextBytes);
      return { items: within.map((row) => ({ ...row, attempts: row.attempts.sort(byAttempt) })), total };
    },
    async eraseLead(organizationId, leadId, { at, anonymise }) {
      const own: string[] = [];
      table.scan((row, key) => {
        if (row.organization_id === organizationId && row.lead_id === leadId) own.push(key);
      });
      for (const key of own) {
        const row = table.get(key);
        if (row === undefined) continue;
        const pending = row.status === 'pending';
        table.set(key, {
          ...row,
          body: anonymise(row.body),
          ...(pending
            ? {
                status: 'cancelled' as const,
                cancelled_at: iso(at),
                next_attempt_at: null,
                last_error: cancelledReason,
                lease_owner: null,
                lease_until: null,
              }
            : {}),
        });
        if (pending) finishedSincePrune += 1;
      }
    },
    async nextDueAt({ liveClaimsAt } = {}) {
      const lapsedBy = liveClaimsAt === undefined ? null : iso(liveClaimsAt);
      let earliest: string | null = null;
      table.scan((row) => {
        if (
          row.status === 'pending' &&
          row.next_attempt_at !== null &&
          (lapsedBy === null || unclaimedAt(row, lapsedBy))
        ) {
          if (earliest === null || row.next_attempt_at < earliest) earliest = row.next_attempt_at;
        }
      });
      return earliest;
    },
  };
}
