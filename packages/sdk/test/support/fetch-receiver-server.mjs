/**
 * The built `createFetchHandler` (dist/, as users get it) served by the runtime's own server,
 * `Deno.serve` or `Bun.serve`, for webhooks-receiver-runtimes.test.ts: see recording-receiver.mjs.
 *
 * Arguments: the built module's path, and the secret. Prints one JSON line once listening:
 * `{ runtime, version, port }`.
 */
import { recordingReceiver } from './recording-receiver.mjs';

/**
 * @typedef {(request: Request) => Promise<Response>} Serve
 * @typedef {{
 *   args: string[];
 *   version: { deno: string };
 *   serve(options: { port: number; hostname: string; onListen(address: { port: number }): void }, handler: Serve): unknown;
 * }} DenoGlobal
 * @typedef {{ version: string; serve(options: { port: number; hostname: string; fetch: Serve }): { port: number } }} BunGlobal
 */
const { Deno, Bun } = /** @type {{ Deno?: DenoGlobal; Bun?: BunGlobal }} */ (/** @type {unknown} */ (globalThis));
const [modulePath, secret] = Deno ? Deno.args : process.argv.slice(2);
if (!modulePath || !secret) throw new Error('usage: fetch-receiver-server.mjs <built module path> <secret>');
const { createFetchHandler } = await import(new URL(`file://${modulePath}`).href);
const serve = recordingReceiver(createFetchHandler, secret);

/** @type {(runtime: string, version: string, port: number) => void} */
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
