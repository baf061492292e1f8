/**
 * Where receivers put verified events so that they can answer 2xx at once: the service
 * counts an answer slower than 75 seconds as a failure and retries. In production this is a
 * durable queue (a database table, SQS, a job runner); this in-process one keeps the example
 * runnable, and `idle()` lets tests wait for the work to finish.
 */
import type { ProspectResponseEvent } from '@ocs/sdk/webhooks';

export interface EventQueue {
  push(event: ProspectResponseEvent): void;
  /** Resolves when every pushed event has been handled. */
  idle(): Promise<void>;
}

export function createEventQueue(handle: (event: ProspectResponseEvent) => void | Promise<void>): EventQueue {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(event) {
      tail = tail.then(() => handle(event)).catch((error: unknown) => console.error('event handler failed', error));
    },
    idle: () => tail,
  };
}
