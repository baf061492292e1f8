/**
 * `mock-reset`: `mock.reset()` of the in-process mock, each after three writes (a campaign
 * created, a lead created, a campaign renamed), 1,000 resets per repetition. Each sample is
 * one repetition's p99. Target (the mock's own, not one of issue 11's): p99 at most 5 ms.
 * The median reset beside a reset with nothing to undo is printed for information.
 * BENCH_REPETITIONS (default 3), RESETS per repetition (default 1,000).
 */
import { createOcsMock } from '@ocs/mock/node';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { median, quantile } from '../../../bench/harness/stats.ts';

const reps = repetitions();
const resets = Number(process.env.RESETS ?? 1_000);

await runBench({ name: 'mock-reset', title: 'reset() of the in-process mock after writes' }, async (bench) => {
  const mock = await createOcsMock();
  const headers = { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' };
  const write = (method: string, path: string, body: unknown) =>
    mock.fetch(new Request(`${mock.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) }));
  const campaignId = mock.data.campaigns[0]?.id ?? '';
  const p99: number[] = [];
  const medians: number[] = [];
  const cleanMedians: number[] = [];
  // Not interleave(): each sample is a statistic of many resets, the subject and its
  // baseline alternating reset by reset.
  for (let repetition = 0; repetition < reps; repetition++) {
    const afterWrites: number[] = [];
    const clean: number[] = [];
    for (let i = 0; i < resets; i++) {
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
    p99.push(quantile(afterWrites, 0.99));
    medians.push(median(afterWrites));
    cleanMedians.push(median(clean));
    bench.progress(`#${repetition + 1}: p99 ${p99.at(-1)?.toFixed(3)} ms`);
  }
  bench.set('repetitions', reps);
  bench.set('resets per repetition', resets);
  bench.add(
    compare({
      name: 'reset() after 3 writes, p99 of each repetition',
      subject: { label: 'reset() p99', unit: 'ms', samples: p99 },
      target: { op: '<=', value: 5, on: 'subject' },
    }),
  );
  bench.add(
    compare({
      name: 'reset() after 3 writes / reset() with nothing to undo, medians of each repetition',
      subject: { label: 'reset() after writes', unit: 'ms', samples: medians },
      baseline: { label: 'reset() with nothing to undo', unit: 'ms', samples: cleanMedians },
    }),
  );
});
