/**
 * What the worker logs, for an operator following deliveries: one line per request of an
 * attempt (the webhook, the status or the error, the time taken, and what becomes of the
 * delivery: delivered, the next attempt's time, or given up), and one line when a delivery
 * is given up. Identifiers, statuses and times only: the event's body holds the lead's
 * personal data (email, names, the reply), and none of it is ever logged. A webhook is named
 * by its ID; where a URL is part of a message (a delivery's `last_error` names each failing
 * webhook by it), only its origin and path are logged: a receiver's query string often
 * carries a token (`?token=`), and credentials must not reach a log either.
 */
import type { LogEntry } from '../http/logger.ts';
import type { DeliveryAttemptRecord, DeliveryRecord } from '../store/records.ts';
import type { DeliveryCompletion } from '../store/types.ts';

export const deliveryEvent = 'prospect_response';

/** The lines of an attempt made: one per webhook contacted. */
export function attemptLines(delivery: DeliveryRecord, completion: DeliveryCompletion): LogEntry[] {
  const { status } = completion.outcome;
  return completion.attempts.map((row: DeliveryAttemptRecord) => ({
    level: row.ok ? 'info' : 'warn',
    message: 'delivery attempt',
    event: deliveryEvent,
    delivery_id: delivery.id,
    campaign_id: delivery.campaign_id,
    attempt: row.attempt,
    webhook_id: row.webhook_id,
    ok: row.ok,
    status: row.status,
    duration_ms: Math.round(row.duration_ms),
    error: row.error === null ? null : withoutUrlSecrets(row.error),
    outcome: status,
    next_attempt_at: status === 'pending' ? completion.outcome.at : null,
  }));
}

/** The line of a delivery given up (after its last attempt, or before an attempt it may no longer make), else null. */
export function givenUpLine(delivery: DeliveryRecord, completion: DeliveryCompletion): LogEntry | null {
  if (completion.outcome.status !== 'failed') return null;
  return {
    level: 'error',
    message: 'delivery given up',
    event: deliveryEvent,
    delivery_id: delivery.id,
    campaign_id: delivery.campaign_id,
    attempts_made: completion.attempts_made,
    reason: completion.last_error === null ? null : withoutUrlSecrets(completion.last_error),
  };
}

/** The line of an attempt cut short when the worker stopped, handed back for the next start. */
export function handedBackLine(delivery: DeliveryRecord, completion: DeliveryCompletion): LogEntry {
  return {
    level: 'warn',
    message: 'delivery attempt cut short by the stop: due again at the next start',
    event: deliveryEvent,
    delivery_id: delivery.id,
    campaign_id: delivery.campaign_id,
    attempt: completion.attempt,
    attempts_made: completion.attempts_made,
    next_attempt_at: completion.outcome.at,
  };
}

/** Every http(s) URL in `text` without its credentials, query and fragment: `https://user:pw@h/p?token=x` → `https://h/p`. */
export function withoutUrlSecrets(text: string): string {
  return text.replace(/\bhttps?:\/\/\S+/gi, (found) => {
    // Punctuation after the URL is the message's (`<url>: answered 503`), not the URL's.
    const trailing = /[:;,.)]*$/.exec(found)?.[0] ?? '';
    const url = found.slice(0, found.length - trailing.length);
    // Credentials end at the last `@` before the path; the query and fragment start at `?` or `#`.
    return `${url.replace(/^(https?:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/, '')}${trailing}`;
  });
}
