/**
 * `mock-throughput`: requests per second of the standalone mock (`ocs-mock --port 0`, rate
 * limits raised so that load is not refused, still counted) and of Prism on the same
 * operations, 32 connections on loopback (wrk, else autocannon), interleaved: mock, Prism,
 * mock, Prism ... Target (the mock's own, not one of issue 11's): at least 5 x Prism.
 * BENCH_SECONDS per sample (default 5), BENCH_REPETITIONS (default 3).
 */
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { load, loadTool } from '../../../bench/harness/load.ts';
import { repetitions, sampleSeconds } from '../../../bench/harness/settings.ts';
import { expectOk, prismCampaignId, startStandalone, timedPrism } from './support/standalone.ts';

const seconds = sampleSeconds();
const reps = repetitions();
const connections = 32;

await runBench({ name: 'mock-throughput', title: 'standalone mock vs Prism, requests per second' }, async (bench) => {
  bench.set('load', `${loadTool}, ${connections} connections, ${seconds} s per sample after a warm-up`);
  bench.set('repetitions', reps);
  const mock = await startStandalone({ raiseLimits: true });
  const { prism } = await timedPrism();
  const list = (await expectOk(`${mock.url}/campaigns`, { Authorization: `Bearer ${mock.apiKey}` })) as {
    campaigns: Array<{ id: string }>;
  };
  const mockAuth = { Authorization: `Bearer ${mock.apiKey}` };
  const prismAuth = { Authorization: 'Bearer ocs_bench' };
  const operations = [
    {
      label: 'GET /v1/campaigns/{id}',
      mock: `/campaigns/${list.campaigns[0]?.id}`,
      prism: `/campaigns/${prismCampaignId}`,
    },
    { label: 'GET /v1/leads?limit=20', mock: '/leads?limit=20', prism: '/leads?limit=20' },
  ];
  for (const operation of operations) {
    const targets = {
      mock: { url: `${mock.url}${operation.mock}`, headers: mockAuth },
      prism: { url: `${prism.url}${operation.prism}`, headers: prismAuth },
    };
    await expectOk(targets.mock.url, mockAuth);
    await expectOk(targets.prism.url, prismAuth);
    const non2xx: number[] = [];
    const rate = async (target: { url: string; headers: Record<string, string> }) => {
      const result = await load({ ...target, connections, durationSeconds: seconds });
      non2xx.push(result.non2xx);
      return result.requestsPerSecond;
    };
    await load({ ...targets.mock, connections, durationSeconds: 2 }); // warm-up
    await load({ ...targets.prism, connections, durationSeconds: 2 });
    const samples = await interleave(
      reps,
      { mock: () => rate(targets.mock), prism: () => rate(targets.prism) },
      (name, repetition, value) =>
        bench.progress(`${operation.label} ${name} #${repetition + 1}: ${Math.round(value)}/s`),
    );
    bench.add(
      compare({
        name: `${operation.label}: standalone mock / Prism`,
        subject: { label: 'standalone mock', unit: 'req/s', samples: samples.mock },
        baseline: { label: 'Prism', unit: 'req/s', samples: samples.prism },
        target: { op: '>=', value: 5 },
        checks: [
          {
            name: 'every answer 2xx',
            met: non2xx.every((n) => n === 0),
            detail: `non-2xx per sample ${non2xx.join(', ')}`,
          },
        ],
      }),
    );
  }
  await prism.close();
});
