/**
 * `server-start`: the built reference server (`ocs-server serve --port 0`, the node process
 * itself the child) on PGlite beside the same on PostgreSQL, interleaved in every repetition:
 *   - first start: spawn to the first 200 of `GET /v1/campaigns` (with the demo key the first
 *     start prints) on an empty PGlite data directory / an empty scratch PostgreSQL database;
 *     target: PGlite at most 2 x PostgreSQL;
 *   - later start: the same on the directory / database the first start filled; target: at
 *     most 1.5 x;
 *   - idle RSS: VmRSS of the server process (/proc/<pid>/status) BENCH_IDLE_MS (default
 *     1,000) after the later start's first 200; target: at most 2 x.
 * BENCH_REPETITIONS (default 3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { createScratchDatabase, databaseUrl, type ScratchDatabase } from '../../../bench/harness/postgres.ts';
import { rssMb, stop } from '../../../bench/harness/processes.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { firstOk, type StoreArgs, startServer } from './support/server-process.ts';

const reps = repetitions();
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 1_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One store the server starts on: first on it empty, then again on what the first start left. */
interface Place {
  storeArgs: StoreArgs;
  key: string;
  cleanup(): Promise<void>;
}

/** Spawn to the first 200 of the API; with `rss`, the idle RSS of that process goes there. */
async function timedStart(place: Place, first: boolean, rss?: number[]): Promise<number> {
  const server = await startServer(place.storeArgs);
  if (first) {
    const key = /\b(ocs_[A-Za-z0-9]{20,})\b/.exec(server.output)?.[1];
    if (!key) throw new Error(`the first start printed no demo key:\n${server.output}`);
    place.key = key;
  }
  await firstOk(`${server.origin}/v1/campaigns`, { Authorization: `Bearer ${place.key}` });
  const elapsed = performance.now() - server.spawnedAt;
  if (rss) {
    await sleep(idleMs);
    rss.push(rssMb(server.pid));
  }
  await stop(server.child);
  return elapsed;
}

await runBench(
  { name: 'server-start', title: 'ocs-server on PGlite vs PostgreSQL: start and idle RSS' },
  async (bench) => {
    const url = databaseUrl();
    if (!url) throw new Error('set DATABASE_URL');
    bench.set('repetitions', reps);
    bench.set('idle before RSS', `${idleMs} ms`);
    const places: Place[] = [];
    const rss = { pglite: [] as number[], postgres: [] as number[] };
    let pglite: Place | undefined;
    let postgres: Place | undefined;
    try {
      const samples = await interleave(
        reps,
        {
          pgliteFirst: () => {
            const dir = mkdtempSync(join(tmpdir(), 'ocs-bench-start-'));
            pglite = {
              storeArgs: ['--data-dir', dir],
              key: '',
              cleanup: async () => rmSync(dir, { recursive: true, force: true }),
            };
            places.push(pglite);
            return timedStart(pglite, true);
          },
          postgresFirst: async () => {
            const scratch: ScratchDatabase = await createScratchDatabase(url);
            postgres = { storeArgs: ['--database-url', scratch.url], key: '', cleanup: scratch.drop };
            places.push(postgres);
            return timedStart(postgres, true);
          },
          pgliteLater: () => timedStart(pglite as Place, false, rss.pglite),
          postgresLater: () => timedStart(postgres as Place, false, rss.postgres),
        },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)} ms`),
      );
      bench.note('spawn: `node bin/ocs-server.js serve --port 0`; first 200: GET /v1/campaigns with the demo key');
      bench.add(
        compare({
          name: 'first start (empty store), spawn to first 200: PGlite / PostgreSQL',
          subject: { label: 'PGlite, empty data dir', unit: 'ms', samples: samples.pgliteFirst },
          baseline: { label: 'PostgreSQL, empty database', unit: 'ms', samples: samples.postgresFirst },
          target: { op: '<=', value: 2 },
        }),
      );
      bench.add(
        compare({
          name: 'later start, spawn to first 200: PGlite / PostgreSQL',
          subject: { label: 'PGlite, same data dir', unit: 'ms', samples: samples.pgliteLater },
          baseline: { label: 'PostgreSQL, same database', unit: 'ms', samples: samples.postgresLater },
          target: { op: '<=', value: 1.5 },
        }),
      );
      bench.add(
        compare({
          name: 'idle RSS of the server process: PGlite / PostgreSQL',
          subject: { label: 'PGlite server', unit: 'MB', samples: rss.pglite },
          baseline: { label: 'PostgreSQL server', unit: 'MB', samples: rss.postgres },
          target: { op: '<=', value: 2 },
        }),
      );
    } finally {
      for (const place of places) await place.cleanup();
    }
  },
);
