/**
 * SDK call versus plain fetch, measured in the same run against a local node:http server
 * that answers a fixed JSON body on loopback: `getCampaign(client, ...)` (openapi-fetch,
 * retries, deadline, rate-limit parsing, result metadata) against
 * `fetch(url, { headers }).then((r) => r.json())` of the same URL. Sequential calls after a
 * warm-up, in rounds alternating which goes first (long enough that each pays for its own
 * garbage collection); prints ops/s and the ratio
 * of the SDK's time to fetch's, wall-clock and CPU (target: at most 1.05). The CPU ratio
 * holds better on a loaded machine: both run in this process, the server included.
 *
 * Run: npm run bench -w @ocs/sdk   (builds first; ROUNDS and CALLS override the defaults)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
// The built package, as applications run it (`npm run bench` builds first).
import { createClient, getCampaign } from '@ocs/sdk';

const rounds = Number(process.env.ROUNDS ?? 20);
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

const server = createServer((_request, response) => response.writeHead(200, headers).end(body));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
const url = `${base}/campaigns/${campaignId}`;

const client = createClient({ apiKey: 'ocs_bench', baseUrl: base });
const auth = { Authorization: 'Bearer ocs_bench' };

const contenders = {
  'plain fetch': async () => {
    const response = await fetch(url, { headers: auth });
    await response.json();
  },
  'sdk getCampaign': async () => {
    await getCampaign(client, { campaign_id: campaignId });
  },
};
type Name = keyof typeof contenders;
const names = Object.keys(contenders) as Name[];

interface Sample {
  wall: number;
  cpu: number;
}

async function time(name: Name, n: number): Promise<Sample> {
  const run = contenders[name];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

// Warm-up: JIT, and the keep-alive sockets of both.
for (const name of names) await time(name, 2_000);

// Rounds alternating which goes first, so that both see the same machine: the ratio of
// each pair of rounds is robust to other load; the medians are reported.
const samples: Record<Name, Sample[]> = { 'plain fetch': [], 'sdk getCampaign': [] };
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) samples[name].push(await time(name, calls));
}
server.close();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ratio = (key: keyof Sample) =>
  median(samples['sdk getCampaign'].map((sdk, i) => sdk[key] / (samples['plain fetch'][i]?.[key] ?? NaN)));
console.log(
  `client bench: ${rounds} rounds x ${calls} sequential calls each, after warm-up; Node ${process.version}; loopback node:http, fixed JSON body`,
);
for (const name of names) {
  const wall = median(samples[name].map((sample) => sample.wall));
  const cpu = median(samples[name].map((sample) => sample.cpu));
  console.log(
    `  ${name.padEnd(16)} ${((calls / wall) * 1000).toFixed(0).padStart(6)} ops/s  ${((wall / calls) * 1000).toFixed(1).padStart(6)} µs/call wall  ${((cpu / calls) * 1000).toFixed(1).padStart(6)} µs/call cpu`,
  );
}
const wallRatio = ratio('wall');
const cpuRatio = ratio('cpu');
const verdict = (ratio: number) => (ratio <= 1.05 ? 'within' : 'ABOVE');
console.log(
  `  sdk/fetch time ratio (median of paired rounds; target <= 1.05): ${wallRatio.toFixed(3)} wall (${verdict(wallRatio)}), ${cpuRatio.toFixed(3)} cpu (${verdict(cpuRatio)})`,
);
