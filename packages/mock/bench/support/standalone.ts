/**
 * The standalone mock as `npx ocs-mock` runs it (the built CLI, the node process itself the
 * child) on a free port (`--port 0`; the address is read from its `--json` start-up line),
 * and Prism as `startPrism` starts it: each timed from the spawn to its first 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitForOutput } from '../../../../bench/harness/ports.ts';
import { track } from '../../../../bench/harness/processes.ts';
import { type PrismMock, startPrism } from '../../src/prism/start-prism.ts';

const mockBin = join(new URL('../..', import.meta.url).pathname, 'bin', 'ocs-mock.cjs');

/** Prism's examples know this campaign; the mock's seed makes its own. */
export const prismCampaignId = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';

export interface Standalone {
  child: ChildProcess;
  /** Base URL, ending in /v1. */
  url: string;
  apiKey: string;
  spawnedAt: number;
}

/**
 * `ocs-mock --port 0 --json`; with `raiseLimits`, rate limits that no load reaches (still
 * counted); `args` are further flags, `env` its environment.
 */
export async function startStandalone(
  options: { raiseLimits?: boolean; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<Standalone> {
  const limits = options.raiseLimits
    ? ['--rate-limit-per-endpoint', '1000000000', '--rate-limit-total', '1000000000']
    : [];
  const spawnedAt = performance.now();
  const child = track(
    spawn(process.execPath, [mockBin, '--port', '0', '--json', ...limits, ...(options.args ?? [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: options.env ?? process.env,
    }),
  );
  const { match } = await waitForOutput(child.stdout as NonNullable<ChildProcess['stdout']>, /^(\{.*\})$/m);
  const { url, apiKey } = JSON.parse(match[1] as string) as { url: string; apiKey: string };
  return { child, url, apiKey, spawnedAt };
}

/** GET `url` once; throws unless it answers 200. */
export async function expectOk(url: string, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(url, { headers });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return body;
}

/** Prism from `startPrism({ port: 0 })` to its first 200; the caller closes it. */
export async function timedPrism(): Promise<{ prism: PrismMock; ms: number }> {
  const started = performance.now();
  const prism = await startPrism({ port: 0 });
  await expectOk(`${prism.url}/campaigns`, { Authorization: 'Bearer ocs_bench' });
  return { prism, ms: performance.now() - started };
}
