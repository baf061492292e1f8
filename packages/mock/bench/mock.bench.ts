/**
 * `npm run bench -w @ocs/mock` (and the root `npm run bench`): the stateful mock beside
 * Prism, measured in the same run on this machine.
 *   (a) start to first answer: in process (createOcsMock + setupServer + the first fetch
 *       through MSW), and cold (a fresh Node process that also imports the mock and MSW),
 *       against Prism's start to first answer (`startPrism`). Target: in process <= 0.1 x Prism.
 *   (b) requests per second of the standalone mock (`ocs-mock`, another process) and of
 *       Prism on the same operations, 32 connections. Target: >= 5 x Prism.
 *   (c) `reset()`: median and p99 over many resets, after writes. Target: <= 5 ms.
 * BENCH_SECONDS sets the load duration (default 10), BENCH_RUNS the start-up runs (default 5).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createOcsMock } from '@ocs/mock/node';
import { startPrism } from '../src/prism/start-prism.ts';
import { load, type LoadResult, loadTool } from './load.ts';

const root = new URL('..', import.meta.url).pathname;
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const run = promisify(execFile);

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** (a) The mock: a fresh process per run; the parent times spawn to answer. */
async function mockStart() {
  const inProcess: number[] = [];
  const cold: number[] = [];
  const imports: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { stdout } = await run(process.execPath, [join(root, 'bench', 'first-answer.mjs')], { cwd: root });
    const total = performance.now() - started;
    const result = JSON.parse(stdout) as { status: number; inProcessMs: number; importMs: number };
    if (result.status !== 200) throw new Error(`first answer was ${result.status}`);
    inProcess.push(result.inProcessMs);
    imports.push(result.importMs);
    cold.push(total);
  }
  return { inProcess: median(inProcess), imports: median(imports), cold: median(cold) };
}

/** (a) Prism: startPrism (which spawns it) to its first answer. */
async function prismStart(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const prism = await startPrism({ port: 0 });
    const response = await fetch(`${prism.url}/campaigns`, { headers: { Authorization: 'Bearer ocs_bench' } });
    await response.text();
    times.push(performance.now() - started);
    await prism.close();
    if (response.status !== 200) throw new Error(`Prism answered ${response.status}`);
  }
  return median(times);
}

/** (b) The standalone mock as `npx ocs-mock` runs it, limits raised so that load is not refused. */
async function startStandalone(): Promise<{ url: string; apiKey: string; child: ChildProcess; campaignId: string }> {
  const args = ['--port', '0', '--json', '--rate-limit-per-endpoint', '1000000000', '--rate-limit-total', '1000000000'];
  const child = spawn(process.execPath, [join(root, 'bin', 'ocs-mock.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [string];
  const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
  const list = (await (await fetch(`${url}/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as {
    campaigns: Array<{ id: string }>;
  };
  return { url, apiKey, child, campaignId: list.campaigns[0]?.id ?? '' };
}

async function loadBoth(target: { url: string; headers: Record<string, string> }): Promise<LoadResult> {
  await load({ ...target, durationSeconds: 2 }); // warm-up
  return load({ ...target, durationSeconds: duration });
}

/** (c) reset() after a few writes, many times. */
async function resetTimes(iterations = 1000) {
  const mock = await createOcsMock();
  const headers = { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' };
  const write = (method: string, path: string, body: unknown) =>
    mock.fetch(new Request(`${mock.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) }));
  const campaignId = mock.data.campaigns[0]?.id ?? '';
  const afterWrites: number[] = [];
  const clean: number[] = [];
  for (let i = 0; i < iterations; i++) {
    await write('POST', '/campaigns', { name: `Bench ${i}` });
    await write('POST', '/leads', { email: `bench${i}@example.com`, campaign_id: campaignId });
    await write('PATCH', `/campaigns/${campaignId}`, { name: `Renamed ${i}` });
    let started = performance.now();
    mock.reset();
    afterWrites.push(performance.now() - started);
    started = performance.now();
    mock.reset();
    clean.push(performance.now() - started);
  }
  return { median: median(afterWrites), p99: quantile(afterWrites, 0.99), cleanMedian: median(clean) };
}

const lines: string[] = [
  `@ocs/mock bench: Node ${process.version}, ${runs} start-up runs, ${loadTool} for ${duration} s`,
];

// (a)
const mockTimes = await mockStart();
const prismTime = await prismStart();
const startRatio = mockTimes.inProcess / prismTime;
lines.push(
  '',
  '(a) start to first answer (median)',
  `    Prism (startPrism + first fetch)                   ${ms(prismTime)}`,
  `    mock in process (createOcsMock + setupServer + fetch) ${ms(mockTimes.inProcess)}   = ${startRatio.toFixed(3)} x Prism (target <= 0.1: ${verdict(startRatio <= 0.1)})`,
  `    mock cold (new process: import + the above)        ${ms(mockTimes.cold)}   = ${(mockTimes.cold / prismTime).toFixed(3)} x Prism (imports alone ${ms(mockTimes.imports)})`,
);

// (b)
const standalone = await startStandalone();
const prism = await startPrism({ port: 0 });
const prismCampaign = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const operations = [
  {
    label: 'GET /v1/campaigns/{id}',
    mock: `/campaigns/${standalone.campaignId}`,
    prism: `/campaigns/${prismCampaign}`,
  },
  { label: 'GET /v1/leads?limit=20', mock: '/leads?limit=20', prism: '/leads?limit=20' },
];
lines.push('', `(b) requests per second, 32 connections (the mock with its rate limits raised, still counting)`);
let worst = Number.POSITIVE_INFINITY;
for (const operation of operations) {
  const mockResult = await loadBoth({
    url: `${standalone.url}${operation.mock}`,
    headers: { Authorization: `Bearer ${standalone.apiKey}` },
  });
  const prismResult = await loadBoth({
    url: `${prism.url}${operation.prism}`,
    headers: { Authorization: 'Bearer ocs_bench' },
  });
  const ratio = mockResult.requestsPerSecond / prismResult.requestsPerSecond;
  worst = Math.min(worst, ratio);
  lines.push(
    `    ${operation.label}`,
    `      Prism            ${fmt(prismResult.requestsPerSecond).padStart(8)} req/s  p99 ${prismResult.p99Ms.toFixed(1)} ms  non-2xx ${prismResult.non2xx}`,
    `      standalone mock  ${fmt(mockResult.requestsPerSecond).padStart(8)} req/s  p99 ${mockResult.p99Ms.toFixed(1)} ms  non-2xx ${mockResult.non2xx}   = ${ratio.toFixed(1)} x Prism`,
  );
}
lines.push(`    worst ratio ${worst.toFixed(1)} x Prism (target >= 5: ${verdict(worst >= 5)})`);
standalone.child.kill('SIGTERM');
await prism.close();

// (c)
const reset = await resetTimes();
lines.push(
  '',
  '(c) reset() over 1,000 resets, each after 3 writes',
  `    median ${ms(reset.median)}, p99 ${ms(reset.p99)} (target <= 5 ms: ${verdict(reset.p99 <= 5)}); with nothing to undo: median ${ms(reset.cleanMedian)}`,
);

console.log(lines.join('\n'));
