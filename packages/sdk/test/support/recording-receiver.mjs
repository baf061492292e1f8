/**
 * The receiver that webhooks-receiver-runtimes.test.ts and webhooks-receiver-edge.test.ts run
 * in other runtimes, where the test cannot spy on `onEvent`: it records the idempotency keys
 * `onEvent` was called with, in order, and answers them to `GET /calls`. An event whose
 * `prospect_message` is `fail once` throws the first time it arrives.
 *
 * @param {(options: {
 *   secret: string;
 *   onEvent(event: { idempotency_key: string; prospect_message?: string }): void;
 *   onError(): void;
 * }) => (request: Request) => Promise<Response>} createFetchHandler
 * @param {string} secret
 * @returns {(request: Request) => Promise<Response>}
 */
export function recordingReceiver(createFetchHandler, secret) {
  /** @type {string[]} */
  const calls = [];
  const handler = createFetchHandler({
    secret,
    onEvent: (event) => {
      calls.push(event.idempotency_key);
      if (event.prospect_message === 'fail once' && calls.filter((key) => key === event.idempotency_key).length === 1) {
        throw new Error('failing once, as asked');
      }
    },
    onError: () => {},
  });
  return async (request) => (new URL(request.url).pathname === '/calls' ? Response.json(calls) : handler(request));
}
