/**
 * `request-log-postgres` and `request-log-pglite` (this file, with `postgres` or `pglite`):
 * what the request log costs on the GET benchmark of `server-get-*` (an authenticated
 * `GET /v1/campaigns/{id}`, 32 connections). Two built servers, alike but for `LOG_LEVEL`:
 * `info` (a JSON line per request, written to a file as a collector would read it) and
 * `silent` (no line), loaded in turn: info, silent, info, silent ... Target: the logging one
 * answers at least 0.95 x the silent one's rate (issue 15: the log costs at most 5 %).
 * On PostgreSQL both serve one scratch database; on PGlite each its own data directory (one
 * writer per directory). BENCH_SECONDS per sample (default 5), BENCH_REPETITIONS (default 3).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { load, loadTool } from '../../../bench/harness/load.ts';
import { waitForOutput } from '../../../bench/harness/ports.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop, track } from '../../../bench/harness/processes.ts';
import { repetitions, sampleSeconds } from '../../../bench/harness/settings.ts';
import { createOrganizationKey, serverBin, type StoreArgs } from './support/server-process.ts';

const backend = process.argv[2];
if (backend !== 'postgres' && backend !== 'pglite') throw new Error('usage: request-log.bench.ts postgres|pglite');
const seconds = sampleSeconds();
const reps = repetitions();
const connections = 32;
const scratchDir = mkdtempSync(join(tmpdir(), 'ocs-bench-log-'));

/** `ocs-server serve` at `logLevel`, its standard output in `logFile`; a campaign to GET, with the key's headers. */
async function servedCampaign(storeArgs: StoreArgs, logLevel: 'info' | 'silent', logFile: string) {
  const { key } = createOrganizationKey(storeArgs);
  const out = openSync(logFile, 'w');
  const limits = ['--rate-limit-per-endpoint', '1000000000', '--rate-limit-total', '1000000000'];
  const child: ChildProcess = track(
    spawn(process.execPath, [serverBin, 'serve', '--port', '0', ...limits, ...storeArgs], {
      stdio: ['ignore', out, 'pipe'],
      env: { ...process.env, LOG_LEVEL: logLevel },
    }),
  );
  closeSync(out);
  const { match } = await waitForOutput(
    child.stderr as NonNullable<ChildProcess['stderr']>,
    /OCS reference server on (http:\/\/[^/\s]+)/,
  );
  const origin = match[1] as string;
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const created = (await fetch(`${origin}/v1/campaigns`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench campaign', description: 'GET me' }),
  }).then((r) => r.json())) as { campaign_id: string };
  const url = `${origin}/v1/campaigns/${created.campaign_id}`;
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  await response.arrayBuffer();
  return { child, url, headers };
}

await runBench(
  {
    name: `request-log-${backend}`,
    title: `the request log's cost: GET /v1/campaigns/{id} on ${backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}, LOG_LEVEL=info vs silent`,
  },
  async (bench) => {
    bench.set('load', `${loadTool}, ${connections} connections, ${seconds} s per sample after a warm-up`);
    bench.set('repetitions', reps);
    const url = databaseUrl();
    if (backend === 'postgres' && !url) throw new Error('set DATABASE_URL');
    const scratch = backend === 'postgres' && url ? await createScratchDatabase(url) : null;
    const storeArgs = (name: string): StoreArgs =>
      scratch ? ['--database-url', scratch.url] : ['--data-dir', join(scratchDir, name)];
    const logFile = join(scratchDir, 'info.log');
    const servers: ChildProcess[] = [];
    try {
      const logging = await servedCampaign(storeArgs('info'), 'info', logFile);
      servers.push(logging.child);
      const silent = await servedCampaign(storeArgs('silent'), 'silent', join(scratchDir, 'silent.log'));
      servers.push(silent.child);
      const non2xx: number[] = [];
      const loadServer = async (target: { url: string; headers: Record<string, string> }) => {
        const result = await load({ ...target, connections, durationSeconds: seconds });
        non2xx.push(result.non2xx);
        return result.requestsPerSecond;
      };
      await load({ ...logging, connections, durationSeconds: 2 });
      await load({ ...silent, connections, durationSeconds: 2 });
      const samples = await interleave(
        reps,
        { info: () => loadServer(logging), silent: () => loadServer(silent) },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)}/s`),
      );
      for (const child of servers) await stop(child);
      const logged = readFileSync(logFile, 'utf8').split('\n');
      const requestLines = logged.filter((line) => line.includes('"message":"request"')).length;
      const silentLines = readFileSync(join(scratchDir, 'silent.log'), 'utf8').trim();
      bench.note(
        `the info server wrote ${requestLines} request lines to a file; the silent one ${silentLines === '' ? 'none' : 'some (!)'}`,
      );
      bench.add(
        compare({
          name: 'LOG_LEVEL=info / LOG_LEVEL=silent, same GET',
          subject: { label: 'server, LOG_LEVEL=info', unit: 'req/s', samples: samples.info },
          baseline: { label: 'server, LOG_LEVEL=silent', unit: 'req/s', samples: samples.silent },
          target: { op: '>=', value: 0.95 },
          checks: [
            {
              name: 'every answer 2xx, a line per request',
              met: non2xx.every((n) => n === 0) && requestLines > 0 && silentLines === '',
              detail: `non-2xx per sample ${non2xx.join(', ')}`,
            },
          ],
        }),
      );
    } finally {
      for (const child of servers) await stop(child);
      await scratch?.drop();
      rmSync(scratchDir, { recursive: true, force: true });
    }
  },
);
