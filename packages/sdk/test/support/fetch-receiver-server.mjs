/**
 * A receiver served by the runtime's own server, `Deno.serve` or `Bun.serve`, with the built
 * `createFetchHandler` (dist/, as users get it): for webhooks-receiver-runtimes.test.ts.
 *
 * Arguments: the built module's path, and the secret. Prints one JSON line once listening:
 * `{ runtime, version, port }`. `GET /calls` answers the idempotency keys `onEvent` was
 * called with, in order; an event whose `prospect_message` is `fail once` throws the first time.
 */
const { Deno, Bun } = globalThis;
const [modulePath, secret] = Deno ? Deno.args : process.argv.slice(2);
const { createFetchHandler } = await import(new URL(`file://${modulePath}`).href);

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
const serve = (request) => (new URL(request.url).pathname === '/calls' ? Response.json(calls) : handler(request));

const announce = (runtime, version, port) => console.log(JSON.stringify({ runtime, version, port }));
if (Deno) {
  Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => announce('deno', Deno.version.deno, port) }, serve);
} else if (Bun) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: serve });
  announce('bun', Bun.version, server.port);
} else {
  throw new Error('Run me with Deno or Bun.');
}
