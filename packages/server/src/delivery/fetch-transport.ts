/**
 * A `WebhookTransport` over web-standard `fetch`, for where the application runs without
 * Node's sockets: the mock in a browser or MSW, web-standard runtimes. It follows section 6
 * (POST, no redirects, a 2xx within the timeout) but cannot see the addresses a name
 * resolves to, so it cannot refuse DNS rebinding at connect time: the Node server uses
 * `createNodeWebhookTransport` (`src/node/webhook-transport.ts`) instead, which does.
 */
import { requestFailed, statusVerdict } from './attempt-verdict.ts';
import { type AttemptOutcome, deliveryPolicy, type DeliveryRequest, type WebhookTransport } from './types.ts';

export function createFetchTransport(
  options: { timeoutMs?: number; fetch?: typeof globalThis.fetch } = {},
): WebhookTransport {
  const timeoutMs = options.timeoutMs ?? deliveryPolicy.timeoutMs;
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    async send(request: DeliveryRequest, sendOptions = {}): Promise<AttemptOutcome> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = sendOptions.signal ? AbortSignal.any([timeout, sendOptions.signal]) : timeout;
      try {
        const response = await send(request.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body as BodyInit,
          redirect: 'manual',
          signal,
        });
        // Only the status matters. Cancelling the body frees the connection; it is not awaited,
        // because some fetch implementations (MSW's in Node) never settle that promise.
        void response.body?.cancel().catch(() => undefined);
        // A browser's `redirect: 'manual'` answers an opaque redirect with status 0.
        if (response.type === 'opaqueredirect') {
          return { ok: false, status: null, duration_ms: elapsed(), error: 'redirect not followed (opaque)' };
        }
        const error = statusVerdict(response.status);
        return { ok: error === null, status: response.status, duration_ms: elapsed(), error };
      } catch (error) {
        if (timeout.aborted)
          return { ok: false, status: null, duration_ms: elapsed(), error: `timeout after ${timeoutMs} ms` };
        if (sendOptions.signal?.aborted)
          return { ok: false, status: null, duration_ms: elapsed(), error: 'aborted', aborted: true };
        return { ok: false, status: null, duration_ms: elapsed(), error: requestFailed(error) };
      }
    },
  };
}
