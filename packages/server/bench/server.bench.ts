/**
 * `npm run bench -w @ocs/server`: throughput and p99 latency of an authenticated
 * `GET /v1/campaigns/{id}` beside a bare node:http server returning the same JSON, under the
 * same load (32 connections on loopback), on PGlite and (with DATABASE_URL) PostgreSQL, with
 * the baselines the targets are stated against, all measured in this run:
 *   - PostgreSQL: at least 0.2 x the bare server's requests per second;
 *   - PGlite: at least 0.6 x PGlite's own primary-key select rate in one process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemoOrganization } from '../src/seed/demo.ts';
import { openSqlStore, type SqlStore } from '../src/store/sql/index.ts';
import { load, type LoadResult, loadTool } from './load.ts';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'ocs-server.js');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.DATABASE_URL;

function cli(args: string[]): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [bin, ...args, '--json'], { encoding: 'utf8' }));
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function benchOcs(label: string, storeArgs: string[], port: number) {
  const organization = cli([
    'org',
    'create',
    '--name',
    `Bench ${label}`,
    '--owner-email',
    'bench@example.com',
    ...storeArgs,
  ]);
  const { key } = cli(['key', 'create', '--org', String(organization.id), ...storeArgs]) as { key: string };
  const server = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--port',
      String(port),
      '--rate-limit-per-endpoint',
      '100000000',
      '--rate-limit-total',
      '100000000',
      ...storeArgs,
    ],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/openapi.json`);
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${base}/v1/campaigns`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench campaign', description: 'GET me' }),
  }).then((r) => r.json() as Promise<{ campaign_id: string }>);
  const url = `${base}/v1/campaigns/${created.campaign_id}`;
  const body = await fetch(url, { headers }).then((r) => r.text());
  await load({ url, headers, durationSeconds: 2 }); // warm-up
  const result = await load({ url, headers, durationSeconds: duration });
  await stop(server);
  return { result, body };
}

async function benchBare(body: string, port: number): Promise<LoadResult> {
  const source = `require('node:http').createServer((q, s) => { s.writeHead(200, { 'Content-Type': 'application/json' }); s.end(${JSON.stringify(body)}); }).listen(${port}, '127.0.0.1')`;
  const server = spawn(process.execPath, ['-e', source], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/v1/campaigns/x`;
  await waitFor(url);
  await load({ url, durationSeconds: 2 });
  const result = await load({ url, durationSeconds: duration });
  await stop(server);
  return result;
}

/**
 * PGlite's own primary-key select rate, one query at a time in one process, on the very row
 * the endpoint reads (a campaign), so the ratio measures what the server adds to its query.
 * With `dataDir` PGlite keeps its files on disk as the served one does (every relation access
 * then costs file-system calls); without it, everything stays in memory.
 */
async function pglitePkRate(dataDir?: string): Promise<number> {
  const store = await openSqlStore(dataDir ? { dataDir } : {});
  const demo = await seedDemoOrganization(store);
  const campaign = await createCampaignRow(store, demo.organizationId, demo.ownerId);
  const select = () =>
    store.client.query('select * from campaigns where organization_id = $1 and id = $2', [
      demo.organizationId,
      campaign,
    ]);
  for (let i = 0; i < 500; i++) await select();
  const n = 5000;
  const started = performance.now();
  for (let i = 0; i < n; i++) await select();
  const rate = n / ((performance.now() - started) / 1000);
  await store.close();
  return rate;
}

async function createCampaignRow(store: SqlStore, organizationId: string, ownerId: string): Promise<string> {
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await store.campaigns.insert({
    id,
    organization_id: organizationId,
    owner_id: ownerId,
    name: 'Bench campaign',
    description: 'GET me',
    is_active: false,
    ab_testing_enabled: false,
    traffic_split: 50,
    ab_winner: null,
    custom_fields: {},
    enabled_accounts: [],
    lead_database_filters: null,
    refill_policy: null,
    responder_enabled: false,
    sequence: [],
    sequence_version: 0,
    activated_at: null,
    created_at: at,
    updated_at: at,
  });
  return id;
}

/** A `pg` pool's primary-key select rate at 32 in flight, on a campaign row. */
async function pgPoolPkRate(url: string): Promise<number> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 32 });
  const [row] = (await pool.query('select organization_id, id from campaigns limit 1')).rows as Array<{
    organization_id: string;
    id: string;
  }>;
  let done = 0;
  const until = performance.now() + 5000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        await pool.query('select * from campaigns where organization_id = $1 and id = $2', [
          row?.organization_id,
          row?.id,
        ]);
        done += 1;
      }
    }),
  );
  await pool.end();
  return done / 5;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const lines: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'ocs-bench-'));
const pkDataDir = mkdtempSync(join(tmpdir(), 'ocs-bench-pk-'));
try {
  const pglite = await benchOcs('pglite', ['--data-dir', dataDir], 4801);
  const bare = await benchBare(pglite.body, 4802);
  // Both baselines: the served PGlite keeps a data directory, which makes each query dearer
  // than in memory, so the target's ratio is taken against PGlite on a data directory too.
  const pkRateOnDisk = await pglitePkRate(pkDataDir);
  const pkRateInMemory = await pglitePkRate();
  lines.push(`load: ${loadTool}, 32 connections, ${duration} s per run, ${pglite.body.length}-byte body`);
  lines.push(
    `bare node:http            ${fmt(bare.requestsPerSecond).padStart(8)} req/s   p99 ${bare.p99Ms.toFixed(2)} ms`,
  );
  lines.push(
    `OCS on PGlite             ${fmt(pglite.result.requestsPerSecond).padStart(8)} req/s   p99 ${pglite.result.p99Ms.toFixed(2)} ms   non-2xx ${pglite.result.non2xx}`,
  );
  lines.push(
    `PGlite primary-key select ${fmt(pkRateOnDisk).padStart(8)} /s (the campaign row; one process, one at a time; data directory, as served)`,
  );
  lines.push(`                          ${fmt(pkRateInMemory).padStart(8)} /s (the same, PGlite in memory)`);
  lines.push(
    `  ratio to PGlite PK rate: ${(pglite.result.requestsPerSecond / pkRateOnDisk).toFixed(2)} (target >= 0.60; ${(pglite.result.requestsPerSecond / pkRateInMemory).toFixed(2)} against PGlite in memory); to bare: ${(pglite.result.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}`,
  );
  if (databaseUrl) {
    const postgres = await benchOcs('postgres', ['--database-url', databaseUrl], 4803);
    const poolRate = await pgPoolPkRate(databaseUrl);
    lines.push(
      `OCS on PostgreSQL         ${fmt(postgres.result.requestsPerSecond).padStart(8)} req/s   p99 ${postgres.result.p99Ms.toFixed(2)} ms   non-2xx ${postgres.result.non2xx}`,
    );
    lines.push(`pg pool primary-key select ${fmt(poolRate).padStart(7)} /s (the campaign row; 32 in flight)`);
    lines.push(
      `  ratio to bare: ${(postgres.result.requestsPerSecond / bare.requestsPerSecond).toFixed(3)} (target >= 0.20)`,
    );
  } else {
    lines.push('PostgreSQL: skipped (set DATABASE_URL to measure it)');
  }
  console.log(lines.join('\n'));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(pkDataDir, { recursive: true, force: true });
}
