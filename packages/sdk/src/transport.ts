/**
 * Sends a request, and sends it again when that is safe (src/retry.ts), within the
 * call's deadline; every answer goes to `onResponse` (rate-limit state, deprecation
 * warnings). Named operations call it with a URL and init; openapi-fetch (the path API)
 * calls it with a Request.
 */
import type { Deadline } from './deadline.ts';
import { OcsConnectionError } from './errors.ts';
import { backoff, retryWait } from './retry.ts';

/** One call: its deadline, its retry budget, whether it may be retried at all. */
export interface Call {
  deadline: Deadline;
  maxRetries: number;
  retryable: boolean;
  /** `METHOD /route/{template}`, when known (named operations). */
  route?: string;
}

export interface TransportSettings {
  maxRetryAfterMs: number;
  fetch: typeof fetch | undefined;
  onResponse(response: Response, route: string | undefined): void;
}

export type Send = (input: Request | string, init: RequestInit, call: Call) => Promise<Response>;

export function createTransport(settings: TransportSettings): Send {
  return async (input, init, { deadline, maxRetries, retryable, route }) => {
    init.signal = deadline.signal;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      // A Request's body can be read once: a retryable one sends a copy each time.
      const pending = (settings.fetch ?? fetch)(
        typeof input === 'string' || !retryable || !input.body ? input : input.clone(),
        init,
      );
      try {
        response = await deadline.race(pending);
      } catch (error) {
        // Past the deadline or aborted: the deadline's signal has torn the request down.
        const stopped = deadline.stopped();
        if (stopped) throw stopped;
        const ms = backoff(attempt);
        if (!retryable || attempt >= maxRetries || Date.now() + ms > deadline.at) {
          throw new OcsConnectionError(
            `${typeof input === 'string' ? input : input.url} failed ${attempt + 1}x: ${
              // undici says "fetch failed" and puts the reason (ECONNREFUSED...) in `cause`.
              (error as { cause?: Error })?.cause?.message ?? (error as Error)?.message
            }. Check baseUrl and the network.`,
            { cause: error },
          );
        }
        await deadline.sleep(ms);
        continue;
      }
      settings.onResponse(response, route);
      if (response.ok || !retryable || attempt >= maxRetries) return response;
      const ms = await retryWait(response, attempt, settings.maxRetryAfterMs);
      // Answer now rather than wait past the cap or the deadline: the caller gets the
      // error (with `retryAfter`) at once and decides.
      if (ms === undefined || Date.now() + ms > deadline.at) return response;
      // Free the connection; not awaited, as a cancelled stream need not settle.
      response.body?.cancel().catch(() => {});
      await deadline.sleep(ms);
    }
  };
}
