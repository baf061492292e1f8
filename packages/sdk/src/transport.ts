/**
 * Sends a request, and sends it again when that is safe (src/retry.ts), within the
 * call's deadline; every answer goes to `onResponse` (rate-limit state, deprecation
 * warnings), and with debug logging on, every attempt, answer and retry goes to `log`.
 * Named operations call it with a URL and init; openapi-fetch (the path API) calls it
 * with a Request.
 */
import type { Deadline } from './deadline.ts';
import { OcsConnectionError } from './errors.ts';
import { backoff, retryWait } from './retry.ts';

/** One call: its deadline, its retry budget, whether it may be retried at all. */
export interface Call {
  deadline: Deadline;
  maxRetries: number;
  retryable: boolean;
  /** `METHOD /route/{template}`, of a named operation or a path-API call. */
  route: string;
  /** Set by the transport: how many times the request was sent. */
  attempts?: number;
  /**
   * Read the body of the answer given back as part of its attempt, into `text`: an answer
   * whose body is cut off is then a lost connection like any other (retried when the
   * request may be sent again), not an error of the caller's own read.
   */
  read?: boolean;
  /** Set by the transport when `read`: the body of the answer it gave back. */
  text?: string;
}

export type Send = (input: Request | string, init: RequestInit, call: Call) => Promise<Response>;

/**
 * @param maxRetryAfterMs the longest `Retry-After` waited for (src/retry.ts).
 * @param clientFetch the client's `fetch` option, else the global `fetch` is looked up at
 * each request.
 * @param onResponse gets every answer (rate-limit state, deprecation warnings).
 * @param log debug logging: one line per attempt, answer and retry (never a header, so never the key).
 */
export function createTransport(
  maxRetryAfterMs: number,
  clientFetch: typeof fetch | undefined,
  onResponse: (response: Response, route: string) => void,
  log: ((line: string) => void) | undefined,
): Send {
  return async (input, init, call) => {
    const { deadline, maxRetries, retryable } = call;
    const url = typeof input === 'string' ? input : input.url;
    init.signal = deadline.signal;
    for (let attempt = 0; ; attempt++) {
      call.attempts = attempt + 1;
      const started = Date.now();
      /** Debug line of this attempt: what came back, how long it took, and the retry if any. */
      const note =
        log &&
        ((outcome: string, wait?: number) =>
          log(
            `${init.method ?? (input as Request).method} ${url} attempt ${attempt + 1}: ${outcome} in ${Date.now() - started} ms${
              wait === undefined ? '' : `; retry in ${Math.round(wait)} ms`
            }`,
          ));
      /**
       * No answer, or one cut off: thrown as the deadline's error or OcsConnectionError, or
       * waited out before the next attempt when the request may be sent again.
       */
      const lost = async (error: unknown, what: string) => {
        // Past the deadline or aborted: the deadline's signal has torn the request down.
        const stopped = deadline.stopped();
        if (stopped) {
          note?.(stopped.name);
          throw stopped;
        }
        // undici says "fetch failed" and puts the reason (ECONNREFUSED...) in `cause`.
        const reason = `${what}${(error as { cause?: Error })?.cause?.message ?? (error as Error)?.message}`;
        const ms = backoff(attempt);
        if (!retryable || attempt >= maxRetries || Date.now() + ms > deadline.at) {
          note?.(reason);
          throw new OcsConnectionError(`${url} failed ${attempt + 1}x: ${reason}. Check baseUrl and the network.`, {
            cause: error,
          });
        }
        note?.(reason, ms);
        await deadline.sleep(ms);
      };
      let response: Response;
      try {
        // A Request's body can be read once: a retryable one sends a copy each time (a URL
        // string has none, and its `body` would be a polluted Object.prototype's). Raced with
        // the deadline: a custom fetch may ignore the signal.
        response = await deadline.race(() =>
          (clientFetch ?? fetch)(!retryable || typeof input == 'string' || !input.body ? input : input.clone(), init),
        );
      } catch (error) {
        await lost(error, '');
        continue;
      }
      onResponse(response, call.route);
      let ms =
        response.ok || !retryable || attempt >= maxRetries
          ? undefined
          : await deadline.race(() => retryWait(response, attempt, maxRetryAfterMs));
      // Answer now rather than wait past the cap or the deadline: the caller gets the
      // error (with `retryAfter`) at once and decides. (No wait: `now + undefined` is NaN.)
      if (Date.now() + (ms as number) > deadline.at) ms = undefined;
      note?.(`HTTP ${response.status} (request ${response.headers.get('x-request-id')})`, ms);
      if (ms === undefined) {
        if (!call.read) return response;
        try {
          call.text = await deadline.race(() => response.text());
          return response;
        } catch (error) {
          await lost(error, 'the answer was cut off: ');
          continue;
        }
      }
      // Free the connection; not awaited, as a cancelled stream need not settle.
      response.body?.cancel().catch(() => {});
      await deadline.sleep(ms);
    }
  };
}
