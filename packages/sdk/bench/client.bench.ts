/**
 * `sdk-client`: an SDK call against a raw fetch doing the same job, in one process, against
 * a node:http server on a free loopback port (the three contenders and why the baseline is
 * what it is: support/client-contenders.ts). Each sample is CALLS sequential calls; the
 * contenders alternate (A B C A B C ...) for ROUNDS repetitions after a warm-up. Target: the
 * SDK's time per call at most 1.05 x that of the raw fetch with headers and a deadline
 * (wall-clock); the CPU-time ratio is printed too, as it holds better on a loaded machine,
 * and so is the ratio to the bare fetch that was the baseline until 2026-11-26.
 *
 * Run: npm run bench -- sdk-client   (ROUNDS, default 20, and CALLS, default 1,000)
 */
import { performance } from 'node:perf_hooks';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { bodyBytes, startContenders, type Contender } from './support/client-contenders.ts';

const rounds = repetitions(Number(process.env.ROUNDS ?? 20));
const calls = Number(process.env.CALLS ?? 1_000);

await runBench(
  { name: 'sdk-client', title: 'SDK getCampaign vs raw fetch with deadline, loopback node:http' },
  async (bench) => {
    const contenders = await startContenders();
    /** µs per call, wall-clock; the CPU time of the same calls goes to `cpu`. */
    const cpu: Record<Contender, number[]> = { sdk: [], fetch: [], bare: [] };
    const time = async (name: Contender, n: number) => {
      const run = contenders.run[name];
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < n; i++) await run();
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      cpu[name].push((used.user + used.system) / n);
      return (wall * 1000) / n;
    };

    // Warm-up: JIT, and the keep-alive sockets of each.
    for (const name of ['sdk', 'fetch', 'bare'] as const) {
      await time(name, 2_000);
      cpu[name].length = 0;
    }

    const wall = await interleave(rounds, {
      sdk: () => time('sdk', calls),
      fetch: () => time('fetch', calls),
      bare: () => time('bare', calls),
    });
    contenders.close();

    bench.set('repetitions', rounds);
    bench.set('calls per sample', calls);
    bench.set('node', process.version);
    bench.note(`${bodyBytes}-byte JSON body; server and client share this process`);
    const sdk = { label: 'sdk getCampaign', unit: 'µs/call' };
    const fetch = { label: 'fetch + deadline + json()', unit: 'µs/call' };
    bench.add(
      compare({
        name: 'time per call, wall-clock: SDK / fetch with deadline',
        subject: { ...sdk, samples: wall.sdk },
        baseline: { ...fetch, samples: wall.fetch },
        target: { op: '<=', value: 1.05 },
      }),
    );
    bench.add(
      compare({
        name: 'time per call, CPU: SDK / fetch with deadline',
        subject: { ...sdk, samples: cpu.sdk },
        baseline: { ...fetch, samples: cpu.fetch },
      }),
    );
    bench.add(
      compare({
        name: 'time per call, wall-clock: SDK / bare fetch (old baseline)',
        subject: { ...sdk, samples: wall.sdk },
        baseline: { label: 'bare fetch + json()', unit: 'µs/call', samples: wall.bare },
      }),
    );
  },
);
