/**
 * `leads-import-postgres`: 100,000 leads imported through the batch form of `POST /v1/leads`
 * (`{ leads: [...] }`, decision 0012) on the built reference server (a child process on a
 * scratch PostgreSQL database, rate limits raised), in batches of BENCH_IMPORT_BATCH leads
 * (default 5,000: about 630 KB of body, under the 1 MB limit), 2 batches in flight, each with
 * its own `Idempotency-Key` as an importer sends them; beside the `pg` pool's own multi-row
 * insert of the same 100,000 rows into `leads` (one `insert ... values` statement per batch
 * of the same size, 2 in flight), interleaved. Each sample imports new emails, so both the
 * server and the pool insert every row. Rate: leads per second over the whole 100,000.
 * Target: at least 0.5 x the pool's multi-row insert rate.
 * BENCH_IMPORT_LEADS (default 100,000), BENCH_REPETITIONS (default 3).
 */
import pg from 'pg';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop } from '../../../bench/harness/processes.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { createOrganizationKey, startServer } from './support/server-process.ts';

const reps = repetitions();
const total = Number(process.env.BENCH_IMPORT_LEADS ?? 100_000);
const batchSize = Number(process.env.BENCH_IMPORT_BATCH ?? 5_000);
const inFlight = 2;
const person = { first_name: 'Dana', last_name: 'Whitfield', company: 'Northwind Analytics', title: 'VP Revenue' };

/** The batches of one sample: `total` new emails, `batchSize` at a time. */
function batches(sample: string): Array<Array<typeof person & { email: string }>> {
  return Array.from({ length: Math.ceil(total / batchSize) }, (_, b) =>
    Array.from({ length: Math.min(batchSize, total - b * batchSize) }, (_, i) => ({
      ...person,
      email: `import-${sample}-${b * batchSize + i}@example.com`,
    })),
  );
}

/** Runs `work` over every batch, `inFlight` at a time; leads per second over the whole. */
async function leadsPerSecond<T>(all: T[][], work: (batch: T[], index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let index = next++; index < all.length; index = next++) await work(all[index] as T[], index);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

await runBench(
  {
    name: 'leads-import-postgres',
    title: `importing ${total.toLocaleString('en')} leads (batch form of POST /v1/leads), PostgreSQL`,
  },
  async (bench) => {
    const url = databaseUrl();
    if (!url) throw new Error('set DATABASE_URL');
    bench.set('load', `${total} leads per sample, batches of ${batchSize}, ${inFlight} batches in flight`);
    bench.set('repetitions', reps);
    const scratch = await createScratchDatabase(url);
    const pool = new pg.Pool({ connectionString: scratch.url, max: inFlight });
    pool.on('error', () => undefined);
    try {
      const storeArgs = ['--database-url', scratch.url];
      const { organizationId, key } = createOrganizationKey(storeArgs);
      const server = await startServer(storeArgs, { raiseLimits: true });
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const failures: string[] = [];
      let created = 0;

      const importBatch = async (leads: unknown[], idempotencyKey: string) => {
        const answer = await fetch(`${server.origin}/v1/leads`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': idempotencyKey },
          body: JSON.stringify({ leads }),
        });
        const body = (await answer.json()) as { created?: number };
        if (answer.status !== 207) failures.push(`${answer.status} ${JSON.stringify(body).slice(0, 200)}`);
        created += body.created ?? 0;
      };
      // The pool's own multi-row insert: the same table, the same columns the API fills.
      const insertBatch = async (leads: Array<typeof person & { email: string }>) => {
        const at = new Date().toISOString();
        const params: unknown[] = [organizationId, at];
        const rows = leads.map((lead) => {
          params.push(crypto.randomUUID(), lead.email, lead.first_name, lead.last_name, lead.company, lead.title);
          const p = params.length;
          return `($${p - 5}, $1, $${p - 4}, $${p - 3}, $${p - 2}, $${p - 1}, $${p}, '{}'::jsonb, $2, $2)`;
        });
        await pool.query(
          `insert into leads (id, organization_id, email, first_name, last_name, company, title, custom_fields, created_at, updated_at)
           values ${rows.join(', ')}`,
          params,
        );
      };

      // Warm-up: one batch each (the server's code paths and plans, the pool's connections).
      await importBatch(batches('warm-server')[0] ?? [], 'warm-up');
      await insertBatch(batches('warm-pool')[0] ?? []);
      let sample = 0;
      const samples = await interleave(
        reps,
        {
          server: () => {
            const run = `s${sample++}`;
            return leadsPerSecond(batches(run), (batch, index) => importBatch(batch, `${run}-${index}`));
          },
          pool: () => {
            const run = `p${sample++}`;
            return leadsPerSecond(batches(run), (batch) => insertBatch(batch));
          },
        },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)} leads/s`),
      );
      await stop(server.child);
      const { rows } = await pool.query('select count(*)::int as leads from leads');
      bench.note(`${rows[0]?.leads} leads in the scratch database ${scratch.name} at the end`);
      bench.add(
        compare({
          name: `server batch import / pg pool multi-row insert, batches of ${batchSize}, ${inFlight} in flight`,
          subject: { label: 'POST /v1/leads { leads }', unit: 'leads/s', samples: samples.server },
          baseline: { label: 'pg pool insert ... values', unit: 'rows/s', samples: samples.pool },
          target: { op: '>=', value: 0.5 },
          checks: [
            {
              name: 'every batch 207, every lead created',
              met: failures.length === 0 && created === reps * total + Math.min(batchSize, total),
              detail: `${created} leads created; ${failures.length} batches failed${failures[0] ? ` (${failures[0]})` : ''}`,
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
