/**
 * The built `createFetchHandler` (dist/, as users get it) served by the runtime's own server,
 * `Deno.serve` or `Bun.serve`, for webhooks-receiver-runtimes.test.ts: see recording-receiver.mjs.
 *
 * Arguments: the built module's path, and the secret. Prints one JSON line once listening:
 * `{ runtime, version, port }`.
 */
import { recordingReceiver } from './recording-receiver.mjs';

const { Deno, Bun } = globalThis;
const [modulePath, secret] = Deno ? Deno.args : process.argv.slice(2);
const { createFetchHandler } = await import(new URL(`file://${modulePath}`).href);
const serve = recordingReceiver(createFetchHandler, secret);

const announce = (runtime, version, port) => console.log(JSON.stringify({ runtime, version, port }));
if (Deno) {
  Deno.serve(
    { port: 0, hostname: '127.0.0.1', onListen: ({ port }) => announce('deno', Deno.version.deno, port) },
    serve,
  );
} else if (Bun) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: serve });
  announce('bun', Bun.version, server.port);
} else {
  throw new Error('Run me with Deno or Bun.');
}
