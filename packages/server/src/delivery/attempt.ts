/**
 * One attempt of one delivery: the same bytes to every webhook given, in parallel, each
 * request signed with its webhook's own secret by the SDK's signer (no signature header
 * without a secret), each carrying `X-OCS-Delivery-Attempt: <n>` beside the body's
 * `idempotency_key`, so that a receiver can tell a retry from a duplicate of one attempt.
 * The result is the attempt rows to record; what becomes of the delivery is `settle.ts`.
 */
import { sign } from '@ocs/sdk/webhooks';
import type { Clock } from '../domain/clock.ts';
import type { DeliveryAttemptRecord, DeliveryRecord, WebhookRecord } from '../store/records.ts';
import type { AttemptOutcome, WebhookTransport } from './types.ts';

export const deliveryAttemptHeader = 'X-OCS-Delivery-Attempt';
export const deliveryUserAgent = 'ocs-webhooks/1';

/** The `X-Signature-256` value for the exact bytes sent. */
export type DeliverySigner = (body: Uint8Array, secret: string) => Promise<string>;

export const defaultSigner: DeliverySigner = (body, secret) => sign(body, secret);

export interface AttemptResult {
  startedAt: Date;
  finishedAt: Date;
  /** One per webhook contacted, in the order given. */
  rows: DeliveryAttemptRecord[];
  /** Some request was dropped by the `signal` before its receiver answered: the attempt is incomplete. */
  interrupted: boolean;
}

/** Signed requests of one attempt, ready to leave: prepared before the last check of the claim. */
export interface PreparedAttempt {
  /** Sends them; `signal` (the worker stopping) drops those still waiting for an answer. */
  send(signal?: AbortSignal): Promise<AttemptResult>;
}

const encoder = new TextEncoder();

export async function prepareAttempt(
  tools: { transport: WebhookTransport; signer: DeliverySigner; clock: Clock; onRequest?: () => void },
  delivery: DeliveryRecord,
  webhooks: readonly WebhookRecord[],
): Promise<PreparedAttempt> {
  const attempt = delivery.attempts_made;
  const body = encoder.encode(delivery.body);
  const headers = await Promise.all(
    webhooks.map(async (webhook) => {
      const values: Record<string, string> = {
        'Content-Type': 'application/json',
        'User-Agent': deliveryUserAgent,
        [deliveryAttemptHeader]: String(attempt),
      };
      if (webhook.secret) values['X-Signature-256'] = await tools.signer(body, webhook.secret);
      return values;
    }),
  );
  const sendOne = async (
    webhook: WebhookRecord,
    requestHeaders: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome> => {
    tools.onRequest?.();
    try {
      return await tools.transport.send(
        { url: webhook.url, body, headers: requestHeaders },
        signal === undefined ? undefined : { signal },
      );
    } catch (error) {
      // A transport never throws by contract; if one does, it is this webhook's failure.
      return { ok: false, status: null, duration_ms: 0, error: `transport error: ${String(error)}` };
    }
  };
  return {
    async send(signal) {
      const startedAt = tools.clock.now();
      const outcomes = await Promise.all(webhooks.map((webhook, i) => sendOne(webhook, headers[i] ?? {}, signal)));
      const rows = outcomes.map((outcome, i): DeliveryAttemptRecord => ({
        delivery_id: delivery.id,
        attempt,
        webhook_id: webhooks[i]?.id ?? '',
        url: webhooks[i]?.url ?? '',
        started_at: startedAt.toISOString(),
        ok: outcome.ok,
        status: outcome.status,
        duration_ms: outcome.duration_ms,
        error: outcome.ok ? null : (outcome.error ?? `status ${outcome.status}`),
      }));
      return {
        startedAt,
        finishedAt: tools.clock.now(),
        rows,
        interrupted: outcomes.some((outcome) => outcome.aborted === true),
      };
    },
  };
}
