/**
 * `server-get-postgres` and `server-get-pglite` (this file, with `postgres` or `pglite`):
 * requests per second of an authenticated `GET /v1/campaigns/{id}` on the built reference
 * server (a child process, rate limits raised), under 32 connections on loopback (wrk, else
 * autocannon), beside the baselines its targets are stated against, interleaved with it:
 *   - PostgreSQL: the `pg` pool's own primary-key select of the same campaign row at 32 in
 *     flight (target >= 0.7 x), and a bare node:http server answering the same body (the
 *     ratio is printed, no target). The server and the pool use a scratch database.
 *   - PGlite: PGlite's own primary-key select of a campaign row in this process, one at a
 *     time, on a data directory as the served one (target >= 0.75 x); PGlite in memory too,
 *     for information.
 * BENCH_SECONDS per sample (default 5), BENCH_REPETITIONS (default 3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { load, loadTool } from '../../../bench/harness/load.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop } from '../../../bench/harness/processes.ts';
import { rateInFlight } from '../../../bench/harness/rate.ts';
import { repetitions, sampleSeconds } from '../../../bench/harness/settings.ts';
import { seedDemoOrganization } from '../src/seed/demo.ts';
import { openSqlStore, type SqlStore } from '../src/store/sql/index.ts';
import { startBareHttp } from './support/bare-http.ts';
import { createOrganizationKey, type StoreArgs, startServer } from './support/server-process.ts';

const backend = process.argv[2];
if (backend !== 'postgres' && backend !== 'pglite') throw new Error('usage: server.bench.ts postgres|pglite');
const seconds = sampleSeconds();
const reps = repetitions();
const connections = 32;
const selectCampaign = 'select * from campaigns where organization_id = $1 and id = $2';

/** The served campaign: created through the API; its URL, the key's headers and its body. */
async function servedCampaign(storeArgs: StoreArgs) {
  const { key } = createOrganizationKey(storeArgs);
  const server = await startServer(storeArgs, { raiseLimits: true });
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const created = (await fetch(`${server.origin}/v1/campaigns`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench campaign', description: 'GET me' }),
  }).then((r) => r.json())) as { campaign_id: string };
  const url = `${server.origin}/v1/campaigns/${created.campaign_id}`;
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return { server, url, headers, campaignId: created.campaign_id, body: await response.text() };
}

await runBench(
  {
    name: `server-get-${backend}`,
    title: `authenticated GET /v1/campaigns/{id} on ${backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${connections} connections`,
  },
  async (bench) => {
    bench.set('load', `${loadTool}, ${connections} connections, ${seconds} s per sample after a warm-up`);
    bench.set('repetitions', reps);
    const non2xx: number[] = [];
    const p99: number[] = [];
    const loadServer = async (target: { url: string; headers: Record<string, string> }) => {
      const result = await load({ ...target, connections, durationSeconds: seconds });
      non2xx.push(result.non2xx);
      p99.push(result.p99Ms);
      return result.requestsPerSecond;
    };
    const answers = () => ({
      name: 'every answer 2xx',
      met: non2xx.every((n) => n === 0),
      detail: `non-2xx per sample ${non2xx.join(', ')}; server p99 ${p99.map((n) => n.toFixed(1)).join(', ')} ms`,
    });

    if (backend === 'postgres') {
      const url = databaseUrl();
      if (!url) throw new Error('set DATABASE_URL');
      const scratch = await createScratchDatabase(url);
      const pool = new pg.Pool({ connectionString: scratch.url, max: connections });
      // Dropping the scratch database ends any backend the pool has not closed yet.
      pool.on('error', () => undefined);
      try {
        const served = await servedCampaign(['--database-url', scratch.url]);
        const bare = await startBareHttp(served.body);
        const [row] = (await pool.query('select organization_id, id from campaigns where id = $1', [served.campaignId]))
          .rows as Array<{ organization_id: string; id: string }>;
        const select = () => pool.query(selectCampaign, [row?.organization_id, row?.id]);
        const bareTarget = { url: `${bare.origin}/v1/campaigns/x`, headers: {} };
        // Warm-up: JIT, the server's and the pool's connections, prepared statements.
        await load({ ...served, connections, durationSeconds: 2 });
        await load({ ...bareTarget, connections, durationSeconds: 1 });
        await rateInFlight(connections, 1, select);
        const samples = await interleave(
          reps,
          {
            server: () => loadServer(served),
            pool: () => rateInFlight(connections, seconds, select),
            bare: async () => (await load({ ...bareTarget, connections, durationSeconds: seconds })).requestsPerSecond,
          },
          (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)}/s`),
        );
        await stop(served.server.child);
        await stop(bare.child);
        bench.note(`${served.body.length}-byte body; PostgreSQL scratch database ${scratch.name}`);
        const server = { label: 'OCS server, PostgreSQL', unit: 'req/s', samples: samples.server };
        bench.add(
          compare({
            name: 'server / pg pool primary-key select, 32 in flight',
            subject: server,
            baseline: { label: 'pg pool PK select, 32 in flight', unit: 'selects/s', samples: samples.pool },
            target: { op: '>=', value: 0.7 },
            checks: [answers()],
          }),
        );
        bench.add(
          compare({
            name: 'server / bare node:http, same body',
            subject: server,
            baseline: { label: 'bare node:http', unit: 'req/s', samples: samples.bare },
          }),
        );
      } finally {
        await pool.end();
        await scratch.drop();
      }
      return;
    }

    const dataDir = mkdtempSync(join(tmpdir(), 'ocs-bench-'));
    const pkDataDir = mkdtempSync(join(tmpdir(), 'ocs-bench-pk-'));
    const stores: SqlStore[] = [];
    try {
      const served = await servedCampaign(['--data-dir', dataDir]);
      const onDisk = await pgliteSelect(await openSqlStore({ dataDir: pkDataDir }), stores);
      const inMemory = await pgliteSelect(await openSqlStore({}), stores);
      await load({ ...served, connections, durationSeconds: 2 });
      await rateInFlight(1, 1, onDisk);
      await rateInFlight(1, 1, inMemory);
      const samples = await interleave(
        reps,
        {
          server: () => loadServer(served),
          onDisk: () => rateInFlight(1, seconds, onDisk),
          inMemory: () => rateInFlight(1, seconds, inMemory),
        },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)}/s`),
      );
      await stop(served.server.child);
      bench.note(`${served.body.length}-byte body; PGlite selects run in this process, one at a time`);
      const server = { label: 'OCS server, PGlite (data dir)', unit: 'req/s', samples: samples.server };
      bench.add(
        compare({
          name: 'server / PGlite primary-key select (data directory, as served)',
          subject: server,
          baseline: { label: 'PGlite PK select, data dir', unit: 'selects/s', samples: samples.onDisk },
          target: { op: '>=', value: 0.75 },
          checks: [answers()],
        }),
      );
      bench.add(
        compare({
          name: 'server / PGlite primary-key select (in memory)',
          subject: server,
          baseline: { label: 'PGlite PK select, in memory', unit: 'selects/s', samples: samples.inMemory },
        }),
      );
    } finally {
      for (const store of stores) await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(pkDataDir, { recursive: true, force: true });
    }
  },
);

/**
 * PGlite's primary-key select of a campaign row, the query the endpoint's own read costs at
 * least: a demo organization and one campaign in `store`, then the select, ready to time.
 */
async function pgliteSelect(store: SqlStore, opened: SqlStore[]): Promise<() => Promise<unknown>> {
  opened.push(store);
  const demo = await seedDemoOrganization(store);
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await store.campaigns.insert({
    id,
    organization_id: demo.organizationId,
    owner_id: demo.ownerId,
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
  return () => store.client.query(selectCampaign, [demo.organizationId, id]);
}
