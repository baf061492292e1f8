/**
 * The `X-OCS-Client` header: the SDK, its version and the runtime
 * (`ocs-sdk/1.4.0 node/22.11.0`; `web` for browsers and other web runtimes), so that the
 * service's logs tell which client sent a request. Where fetch lets a client set
 * `User-Agent` (Node, Deno, Bun), it is sent as `User-Agent` too; browsers do not allow it.
 */
// Replaced with the package's version by the build (tsup.config.ts) and by vitest.
declare const __OCS_SDK_VERSION__: string | undefined;

type Globals = {
  Deno?: { version: { deno: string } };
  Bun?: { version: string };
  process?: { versions?: { node?: string } };
};

export function clientHeaders(): Record<string, string> {
  const { Deno, Bun, process } = globalThis as Globals;
  const node = process?.versions?.node;
  // Deno and Bun also define `process.versions.node`: ask for them first.
  const runtime = Deno ? `deno/${Deno.version.deno}` : Bun ? `bun/${Bun.version}` : node && `node/${node}`;
  const client = `ocs-sdk/${typeof __OCS_SDK_VERSION__ == 'string' ? __OCS_SDK_VERSION__ : 'dev'} ${runtime || 'web'}`;
  return { 'X-OCS-Client': client, ...(runtime && { 'User-Agent': client }) };
}
