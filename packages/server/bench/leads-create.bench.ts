/**
 * `leads-create-postgres`: leads created per second through `POST /v1/leads` on the built
 * reference server (a child process on a scratch PostgreSQL database, rate limits raised),
 * 16 connections on loopback (wrk, else autocannon), each request a new email, beside the
 * `pg` pool's own single-row insert into the same `leads` table at 16 in flight, interleaved.
 * Target: at least 0.5 x the pool's insert rate.
 * BENCH_SECONDS per sample (default 5), BENCH_REPETITIONS (default 3).
 */
import pg from 'pg';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { load, loadTool } from '../../../bench/harness/load.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop } from '../../../bench/harness/processes.ts';
import { rateInFlight } from '../../../bench/harness/rate.ts';
import { repetitions, sampleSeconds } from '../../../bench/harness/settings.ts';
import { createOrganizationKey, startServer } from './support/server-process.ts';

const seconds = sampleSeconds();
const reps = repetitions();
const inFlight = 16;
const lead = { first_name: 'Dana', last_name: 'Whitfield', company: 'Northwind Analytics', title: 'VP Revenue' };

await runBench(
  { name: 'leads-create-postgres', title: `creating leads (POST /v1/leads), PostgreSQL, ${inFlight} in flight` },
  async (bench) => {
    const url = databaseUrl();
    if (!url) throw new Error('set DATABASE_URL');
    bench.set('load', `${loadTool}, ${inFlight} connections, ${seconds} s per sample after a warm-up`);
    bench.set('repetitions', reps);
    const scratch = await createScratchDatabase(url);
    const pool = new pg.Pool({ connectionString: scratch.url, max: inFlight });
    // Dropping the scratch database ends any backend the pool has not closed yet.
    pool.on('error', () => undefined);
    try {
      const storeArgs = ['--database-url', scratch.url];
      const { organizationId, key } = createOrganizationKey(storeArgs);
      const server = await startServer(storeArgs, { raiseLimits: true });
      const target = {
        url: `${server.origin}/v1/leads`,
        method: 'POST' as const,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...lead, email: 'bench-{unique}@example.com' }),
        connections: inFlight,
      };
      const probe = await fetch(target.url, {
        method: 'POST',
        headers: target.headers,
        body: target.body.replace('{unique}', 'probe'),
      });
      if (probe.status !== 201) throw new Error(`POST /v1/leads answered ${probe.status}: ${await probe.text()}`);

      // The pool's own single-row insert: the same table, the same columns the API fills.
      let n = 0;
      const run = `${Date.now().toString(36)}`;
      const insert = () => {
        const at = new Date().toISOString();
        n += 1;
        return pool.query(
          `insert into leads (id, organization_id, email, first_name, last_name, company, title, custom_fields, created_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $7, '{}'::jsonb, $8, $8)`,
          [
            crypto.randomUUID(),
            organizationId,
            `pool-${run}-${n}@example.com`,
            lead.first_name,
            lead.last_name,
            lead.company,
            lead.title,
            at,
          ],
        );
      };

      const non2xx: number[] = [];
      const p99: number[] = [];
      await load({ ...target, durationSeconds: 2 }); // warm-up
      await rateInFlight(inFlight, 1, insert);
      const samples = await interleave(
        reps,
        {
          server: async () => {
            const result = await load({ ...target, durationSeconds: seconds });
            non2xx.push(result.non2xx);
            p99.push(result.p99Ms);
            return result.requestsPerSecond;
          },
          pool: () => rateInFlight(inFlight, seconds, insert),
        },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)}/s`),
      );
      await stop(server.child);
      const { rows } = await pool.query('select count(*)::int as leads from leads');
      bench.note(`${rows[0]?.leads} leads in the scratch database ${scratch.name} at the end`);
      bench.add(
        compare({
          name: 'server / pg pool single-row insert, 16 in flight',
          subject: { label: 'POST /v1/leads', unit: 'leads/s', samples: samples.server },
          baseline: { label: 'pg pool insert into leads', unit: 'rows/s', samples: samples.pool },
          target: { op: '>=', value: 0.5 },
          checks: [
            {
              name: 'every answer 2xx',
              met: non2xx.every((count) => count === 0),
              detail: `non-2xx per sample ${non2xx.join(', ')}; server p99 ${p99.map((v) => v.toFixed(1)).join(', ')} ms`,
            },
          ],
        }),
      );
    } finally {
      await pool.end();
      await scratch.drop();
    }
  },
);
