/**
 * A `WebhookTransport` that answers from a function instead of the network, and records every
 * request; and a clock a test moves by hand. For the worker tests, which are about what is
 * sent when, not about HTTP (the Node transport has tests of its own).
 */
import type { AttemptOutcome, DeliveryRequest, WebhookTransport } from '../../src/delivery/types.ts';
import type { Clock } from '../../src/domain/clock.ts';

export interface SentRequest extends DeliveryRequest {
  /** The clock's time when it was sent. */
  sentAt: string;
}

export type FakeTransport = WebhookTransport & { sent: SentRequest[] };

export const answer = {
  ok: (status = 200): AttemptOutcome => ({ ok: true, status, duration_ms: 3, error: null }),
  status: (status: number): AttemptOutcome => ({ ok: false, status, duration_ms: 3, error: `status ${status}` }),
};

export function fakeTransport(
  clock: Clock,
  respond: (request: DeliveryRequest) => AttemptOutcome | Promise<AttemptOutcome> = () => answer.ok(),
): FakeTransport {
  const sent: SentRequest[] = [];
  return {
    sent,
    async send(request) {
      // A copy: the test later compares these bytes with the next attempt's.
      sent.push({ ...request, body: new Uint8Array(request.body), sentAt: clock.now().toISOString() });
      return respond(request);
    },
  };
}

export interface ManualClock extends Clock {
  set(instant: Date | string): void;
}

export function manualClock(start: Date): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set(instant) {
      current = new Date(instant).getTime();
    },
  };
}
