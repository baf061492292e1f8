/**
 * `sdk-client`: an SDK call against plain fetch, in one process, against a node:http server
 * on a free loopback port that answers a fixed JSON body: `getCampaign(client, ...)` on the
 * built package (openapi-fetch, retries, deadline, rate-limit parsing, result metadata)
 * against `fetch(url, { headers }).then((r) => r.json())` of the same URL.
 * Each sample is CALLS sequential calls; subject and baseline alternate (A B A B ...) for
 * ROUNDS repetitions after a warm-up. Target: the SDK's time per call at most 1.05 x fetch's
 * (wall-clock); the CPU-time ratio is printed too, as it holds better on a loaded machine.
 *
 * Run: npm run bench -- sdk-client   (ROUNDS, default 20, and CALLS, default 1,000)
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
// The built package, as applications run it (the runner builds it first).
import { createClient, getCampaign } from '@ocs/sdk';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { listenOnFreePort } from '../../../bench/harness/ports.ts';
import { repetitions } from '../../../bench/harness/settings.ts';

const rounds = repetitions(Number(process.env.ROUNDS ?? 20));
const calls = Number(process.env.CALLS ?? 1_000);
const campaignId = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const body = JSON.stringify({
  success: true,
  campaign: {
    id: campaignId,
    name: 'Q4 Founders Outreach',
    is_active: true,
    created_at: '2026-10-05T09:00:00+00:00',
    updated_at: '2026-10-05T09:00:00+00:00',
    description: 'Founders of seed to Series A B2B startups',
    ab_testing_enabled: true,
    traffic_split: 50,
  },
});
const headers = {
  'Content-Type': 'application/json',
  'Content-Length': String(Buffer.byteLength(body)),
  'X-Request-ID': 'req_5f2c9a7e1b3d4f60a8c2e9b1',
  'RateLimit-Limit': '100',
  'RateLimit-Remaining': '97',
  'RateLimit-Reset': '42',
};

await runBench({ name: 'sdk-client', title: 'SDK getCampaign vs plain fetch, loopback node:http' }, async (bench) => {
  const server = createServer((_request, response) => response.writeHead(200, headers).end(body));
  const base = `${await listenOnFreePort(server)}/v1`;
  const url = `${base}/campaigns/${campaignId}`;
  const client = createClient({ apiKey: 'ocs_bench', baseUrl: base });
  const auth = { Authorization: 'Bearer ocs_bench' };

  const contenders = {
    sdk: async () => {
      await getCampaign(client, { campaign_id: campaignId });
    },
    fetch: async () => {
      const response = await fetch(url, { headers: auth });
      await response.json();
    },
  };
  /** µs per call, wall-clock; the CPU time of the same calls goes to `cpu`. */
  const cpu: Record<keyof typeof contenders, number[]> = { sdk: [], fetch: [] };
  const time = async (name: keyof typeof contenders, n: number) => {
    const run = contenders[name];
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < n; i++) await run();
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpuStart);
    cpu[name].push((used.user + used.system) / n);
    return (wall * 1000) / n;
  };

  // Warm-up: JIT, and the keep-alive sockets of both.
  await time('sdk', 2_000);
  await time('fetch', 2_000);
  cpu.sdk.length = 0;
  cpu.fetch.length = 0;

  const wall = await interleave(rounds, { sdk: () => time('sdk', calls), fetch: () => time('fetch', calls) });
  server.close();

  bench.set('repetitions', rounds);
  bench.set('calls per sample', calls);
  bench.set('node', process.version);
  bench.note(`${Buffer.byteLength(body)}-byte JSON body; server and client share this process`);
  bench.add(
    compare({
      name: 'time per call, wall-clock: SDK / fetch',
      subject: { label: 'sdk getCampaign', unit: 'µs/call', samples: wall.sdk },
      baseline: { label: 'plain fetch + json()', unit: 'µs/call', samples: wall.fetch },
      target: { op: '<=', value: 1.05 },
    }),
  );
  bench.add(
    compare({
      name: 'time per call, CPU: SDK / fetch',
      subject: { label: 'sdk getCampaign', unit: 'µs/call', samples: cpu.sdk },
      baseline: { label: 'plain fetch + json()', unit: 'µs/call', samples: cpu.fetch },
    }),
  );
});
