/**
 * Settle, the worker's last step: what becomes of a delivery after its attempt, as the
 * completion the store records: any `ok` answer delivers it; otherwise `schedule.ts` decides
 * the retry or the end, and `last_error` names every webhook's failure. A delivery given up
 * before its attempt was made keeps the attempt number it had (the claimed attempt was not
 * made); so does one handed back because the worker stopped before its receivers answered
 * (`handedBack`, decision 0021), which is due again at once. The settler writes completions
 * (batched: one statement for many), logs each attempt's requests, each delivery given up and
 * each handed back (`log-lines.ts`), and counts the outcomes.
 */
import { type Logger, silentLogger } from '../http/logger.ts';
import type { DeliveryRecord } from '../store/records.ts';
import type { DeliveryCompletion, Store } from '../store/types.ts';
import type { AttemptResult } from './attempt.ts';
import { createBatcher } from './batcher.ts';
import { attemptLines, givenUpLine, handedBackLine } from './log-lines.ts';
import { afterAttempt } from './schedule.ts';
import type { DeliveryCounts } from './types.ts';

/** Records a completion; resolves once it is written (or found lost). */
export type Settler = (delivery: DeliveryRecord, completion: DeliveryCompletion) => Promise<void>;

export function createSettler(options: { store: Store; logger: Logger; counts: DeliveryCounts }): Settler {
  const { store, logger, counts } = options;
  const completions = createBatcher(async (batch: DeliveryCompletion[]) => {
    const moved = new Set(await store.deliveries.completeAttempts(batch));
    return batch.map((completion) => moved.has(completion.delivery_id));
  });
  return async (delivery, completion) => {
    if (logger !== silentLogger) for (const line of attemptLines(delivery, completion)) logger.log(line);
    const moved = await completions.add(completion);
    if (!moved) counts.claimsLost += 1;
    else if (completion.outcome.status === 'delivered') counts.delivered += 1;
    else if (completion.outcome.status === 'failed') counts.failed += 1;
    // A hand-back is counted by the worker, which knows whether requests had left.
    else if (!isHandedBack(completion)) counts.retried += 1;
    if (moved && logger !== silentLogger && isHandedBack(completion)) logger.log(handedBackLine(delivery, completion));
    // Given up only once recorded: a completion refused (the claim was lost) gave nothing up.
    const givenUpEntry = moved && logger !== silentLogger ? givenUpLine(delivery, completion) : null;
    if (givenUpEntry !== null) logger.log(givenUpEntry);
  };
}

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

/**
 * Hands an attempt cut short back (the worker stopped before every receiver answered, and
 * none accepted it): the delivery is pending again, due at once (the next start makes the
 * attempt), with the attempt number it had before the claim. Nothing is recorded of the
 * requests: the attempt was not made, so it counts against neither the delivery's 5 attempts
 * nor the receivers, and the same number is sent again, as a duplicate of one attempt is.
 */
export function handedBack(workerId: string, delivery: DeliveryRecord, at: Date): DeliveryCompletion {
  const attempt = delivery.attempts_made;
  return {
    delivery_id: delivery.id,
    worker_id: workerId,
    attempt,
    attempts: [],
    outcome: { status: 'pending', at: at.toISOString() },
    attempts_made: attempt - 1,
    last_error: `attempt ${attempt} was cut short when the server stopped; it is made again when the server runs`,
  };
}

/** A completion of `handedBack`: pending, and the attempt it claimed not made. */
export function isHandedBack(completion: DeliveryCompletion): boolean {
  return completion.outcome.status === 'pending' && completion.attempts_made < completion.attempt;
}
