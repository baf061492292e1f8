/**
 * The retry schedule of `prospect_response` (section 6, NOTES.md), as pure decisions: the
 * first attempt at once, then one every 15 minutes while every webhook fails, at most 5 in
 * all, and none later than 48 hours after the delivery was created (the reply's time, when
 * the first attempt is due).
 */
import { deliveryPolicy } from './types.ts';

export interface RetryPolicy {
  retryIntervalMs: number;
  maxAttempts: number;
  windowMs: number;
}

/** What a delivery becomes after an attempt; `at` is the next attempt's time when pending. */
export type AttemptDecision =
  { status: 'delivered'; at: Date } | { status: 'pending'; at: Date } | { status: 'failed'; at: Date; reason: string };

/**
 * Why attempt number `attempt` must not be made at `now`, or null when it may. Normally every
 * claimed attempt may be made; this refuses the ones that come too late: a clock moved far
 * ahead (the sandbox's), a server down for two days, or a worker that died during the last
 * attempt, whose claim is taken over with a number past the limit.
 */
export function refusalBeforeAttempt(
  attempt: number,
  createdAt: Date,
  now: Date,
  policy: RetryPolicy = deliveryPolicy,
): string | null {
  if (attempt > policy.maxAttempts) return `no attempt left: ${policy.maxAttempts} made`;
  if (now.getTime() > createdAt.getTime() + policy.windowMs) return windowClosed(policy);
  return null;
}

/**
 * What follows attempt number `attempt`, started at `startedAt` and answered by `finishedAt`:
 * delivered when any webhook answered ok; otherwise a retry 15 minutes after this attempt's
 * start, unless that was the last attempt or the retry would fall outside the window.
 */
export function afterAttempt(
  input: { attempt: number; createdAt: Date; startedAt: Date; finishedAt: Date; anyOk: boolean },
  policy: RetryPolicy = deliveryPolicy,
): AttemptDecision {
  const { attempt, createdAt, startedAt, finishedAt, anyOk } = input;
  if (anyOk) return { status: 'delivered', at: finishedAt };
  if (attempt >= policy.maxAttempts) {
    return { status: 'failed', at: finishedAt, reason: `every webhook failed on all ${policy.maxAttempts} attempts` };
  }
  const next = new Date(startedAt.getTime() + policy.retryIntervalMs);
  if (next.getTime() > createdAt.getTime() + policy.windowMs) {
    return { status: 'failed', at: finishedAt, reason: windowClosed(policy) };
  }
  return { status: 'pending', at: next };
}

function windowClosed(policy: RetryPolicy): string {
  return `retry window closed: no attempt later than ${policy.windowMs / 3_600_000} hours after the reply`;
}
