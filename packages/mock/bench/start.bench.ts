/**
 * `mock-start`: how soon each mock answers, beside Prism (`startPrism({ port: 0 })` to its
 * first 200 of `GET /v1/campaigns`), interleaved in every repetition:
 *   - in process: `createOcsMock()` + MSW's `setupServer` + the first fetch through it, in a
 *     fresh Node process (bench/first-answer.mjs, timed inside it, imports excluded);
 *     target: at most 0.03 x Prism's start to first answer;
 *   - standalone: `ocs-mock --port 0` from its spawn to its first 200 of `GET /v1/campaigns`,
 *     as every start after the first (its code cache written by a start before the runs,
 *     decision 0022); target: at least 10 x faster than Prism (time ratio at most 0.1);
 *   - standalone's first start, for information: the same with the code cache off;
 *   - cold, for information: the fresh process of the first, from its spawn to its answer
 *     (Node's start and the imports included).
 * BENCH_REPETITIONS (default 3).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { stop } from '../../../bench/harness/processes.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { expectOk, startStandalone, timedPrism } from './support/standalone.ts';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const reps = repetitions();

/** A code cache of the bench's own, filled by one start before the runs. */
const compileCache = mkdtempSync(join(tmpdir(), 'ocs-bench-compile-cache-'));
const cached: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: compileCache };
delete cached.NODE_DISABLE_COMPILE_CACHE;
const uncached = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };

/** `ocs-mock` from its spawn to its first 200, stopped after. */
async function standaloneStart(env: NodeJS.ProcessEnv): Promise<number> {
  const mock = await startStandalone({ env });
  await expectOk(`${mock.url}/campaigns`, { Authorization: `Bearer ${mock.apiKey}` });
  const ms = performance.now() - mock.spawnedAt;
  await stop(mock.child);
  return ms;
}

await runBench({ name: 'mock-start', title: 'the mocks start to first answer vs Prism' }, async (bench) => {
  await standaloneStart(cached);
  const cold: number[] = [];
  const imports: number[] = [];
  const samples = await interleave(
    reps,
    {
      inProcess: async () => {
        const started = performance.now();
        const { stdout } = await run(process.execPath, [join(root, 'bench', 'first-answer.mjs')], {
          cwd: root,
          timeout: 120_000,
        });
        cold.push(performance.now() - started);
        const result = JSON.parse(stdout) as { status: number; inProcessMs: number; importMs: number };
        if (result.status !== 200) throw new Error(`the in-process mock's first answer was ${result.status}`);
        imports.push(result.importMs);
        return result.inProcessMs;
      },
      standalone: () => standaloneStart(cached),
      standaloneFirst: () => standaloneStart(uncached),
      prism: async () => {
        const { prism, ms } = await timedPrism();
        await prism.close();
        return ms;
      },
    },
    (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)} ms`),
  );
  bench.set('repetitions', reps);
  bench.note(
    `imports of the fresh process (the mock and MSW), median ${Math.round(imports.sort((a, b) => a - b)[Math.floor(imports.length / 2)] ?? 0)} ms, not in the in-process time`,
  );
  const prism = { label: 'Prism, startPrism to first 200', unit: 'ms', samples: samples.prism };
  bench.add(
    compare({
      name: 'createOcsMock() in process to its first validated answer / Prism start to first answer',
      subject: { label: 'createOcsMock + setupServer + fetch', unit: 'ms', samples: samples.inProcess },
      baseline: prism,
      target: { op: '<=', value: 0.03 },
    }),
  );
  bench.add(
    compare({
      name: 'standalone mock spawn to first 200 / Prism',
      subject: { label: 'ocs-mock, spawn to first 200', unit: 'ms', samples: samples.standalone },
      baseline: prism,
      target: { op: '<=', value: 0.1, says: '>= 10 x faster' },
    }),
  );
  bench.add(
    compare({
      name: 'standalone mock, first start (no code cache) / Prism',
      subject: { label: 'ocs-mock, cache off, spawn to first 200', unit: 'ms', samples: samples.standaloneFirst },
      baseline: prism,
    }),
  );
  bench.add(
    compare({
      name: 'in process, cold (a new Node process: imports included) / Prism',
      subject: { label: 'new process to first answer', unit: 'ms', samples: cold },
      baseline: prism,
    }),
  );
  rmSync(compileCache, { recursive: true, force: true });
});
