/**
 * The reference server as `npx ocs-server` runs it (the built CLI), for the benches: its
 * administrative commands, and `serve` on a free port (port 0; the address is read from the
 * line it prints), the node process itself being the child, stopped by its PID.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitForOutput } from '../../../../bench/harness/ports.ts';
import { track } from '../../../../bench/harness/processes.ts';

export const serverBin = join(new URL('../..', import.meta.url).pathname, 'bin', 'ocs-server.js');

/** `--data-dir <dir>` or `--database-url <url>`: which store the server and the CLI use. */
export type StoreArgs = string[];

export function cli(args: string[], storeArgs: StoreArgs): Record<string, unknown> {
  const output = execFileSync(process.execPath, [serverBin, ...args, ...storeArgs, '--json'], { encoding: 'utf8' });
  return JSON.parse(output) as Record<string, unknown>;
}

/** A new organization and an API key of it with every scope. */
export function createOrganizationKey(storeArgs: StoreArgs): { organizationId: string; key: string } {
  const organization = cli(['org', 'create', '--name', 'Bench', '--owner-email', 'bench@example.com'], storeArgs);
  const organizationId = String(organization.id);
  return { organizationId, key: String(cli(['key', 'create', '--org', organizationId], storeArgs).key) };
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  /** What it printed on stderr up to its address (on a first start, the demo key too). */
  output: string;
}

/** Starts `ocs-server serve --port 0`; with `raiseLimits`, rate limits no load reaches. */
export async function startServer(
  storeArgs: StoreArgs,
  options: { raiseLimits?: boolean } = {},
): Promise<ServerProcess> {
  const limits = options.raiseLimits
    ? ['--rate-limit-per-endpoint', '1000000000', '--rate-limit-total', '1000000000']
    : [];
  const spawnedAt = performance.now();
  const child = track(
    spawn(process.execPath, [serverBin, 'serve', '--port', '0', ...limits, ...storeArgs], {
      // stdout carries one JSON log line per request; the address is on stderr.
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  const { match, output } = await waitForOutput(
    child.stderr as NonNullable<ChildProcess['stderr']>,
    /OCS reference server on (http:\/\/[^/\s]+)/,
  );
  return { child, pid: child.pid as number, origin: match[1] as string, spawnedAt, output };
}

/** Fetches `url` until it answers 200 (a server that has printed its address usually already does). */
export async function firstOk(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Response> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) return response;
      if (performance.now() > until) throw new Error(`${url} answered ${response.status}`);
    } catch (error) {
      if (performance.now() > until) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
