/**
 * What becomes of a delivery after its attempt, as the completion the store records: any
 * `ok` answer delivers it; otherwise `schedule.ts` decides the retry or the end, and
 * `last_error` names every webhook's failure. A delivery given up before its attempt was
 * made keeps the attempt number it had (the claimed attempt was not made).
 */
import type { DeliveryRecord } from '../store/records.ts';
import type { DeliveryCompletion } from '../store/types.ts';
import type { AttemptResult } from './attempt.ts';
import { afterAttempt } from './schedule.ts';

export function settledAttempt(workerId: string, delivery: DeliveryRecord, result: AttemptResult): DeliveryCompletion {
  const attempt = delivery.attempts_made;
  const decision = afterAttempt({
    attempt,
    createdAt: new Date(delivery.created_at),
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    anyOk: result.rows.some((row) => row.ok),
  });
  const errors = result.rows.filter((row) => !row.ok).map((row) => `${row.url}: ${row.error}`);
  const lastError =
    decision.status === 'delivered'
      ? null
      : decision.status === 'failed'
        ? `${decision.reason} (last: ${errors.join('; ')})`
        : errors.join('; ');
  return {
    delivery_id: delivery.id,
    worker_id: workerId,
    attempt,
    attempts: result.rows,
    outcome: { status: decision.status, at: decision.at.toISOString() },
    attempts_made: attempt,
    last_error: lastError,
  };
}

/** Gives the delivery up without sending: the attempt it claimed is not made. */
export function givenUp(workerId: string, delivery: DeliveryRecord, reason: string, at: Date): DeliveryCompletion {
  return {
    delivery_id: delivery.id,
    worker_id: workerId,
    attempt: delivery.attempts_made,
    attempts: [],
    outcome: { status: 'failed', at: at.toISOString() },
    attempts_made: delivery.attempts_made - 1,
    last_error: reason,
  };
}
