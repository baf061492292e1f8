/**
 * `leads-list-postgres` and `leads-list-pglite` (this file, with `postgres` or `pglite`): the
 * time of one page of `GET /v1/leads?campaign_id=` against one page of `GET /v1/leads` of the
 * same size at the same offset (0, 50,000, 99,900), through the built reference server (a
 * child process, rate limits raised) and the SDK's iterator (`paginate(...).pages()`, one page
 * from the offset). The data: 100,000 leads listed in one campaign (100,020 enrolled, 10
 * enrolments removed, 10 leads erased) and 20,000 more leads of the organization outside it,
 * written with bulk SQL (bench/support/lead-list-data.ts), never ANALYZEd, autovacuum as the
 * server has it. Each page is requested BENCH_PAGE_REQUESTS times (default 9), filtered and
 * unfiltered alternately; the p50s are compared. Target: filtered <= 3 x unfiltered at each
 * offset (issue 11), with `total` exact (100,000 and 120,010).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, listLeads, paginate } from '@ocs/sdk';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop } from '../../../bench/harness/processes.ts';
import { median } from '../../../bench/harness/stats.ts';
import { openSqlStore } from '../src/store/sql/index.ts';
import { buildLeadListData } from './support/lead-list-data.ts';
import { createOrganizationKey, type StoreArgs, startServer } from './support/server-process.ts';

const backend = process.argv[2];
if (backend !== 'postgres' && backend !== 'pglite') throw new Error('usage: leads-list.bench.ts postgres|pglite');
const requests = Number(process.env.BENCH_PAGE_REQUESTS ?? 9);
const pageSize = 100;
const offsets = [0, 50_000, 99_900];
const campaignLeads = 100_020;
const otherLeads = 20_000;

await runBench(
  {
    name: `leads-list-${backend}`,
    title: `GET /v1/leads?campaign_id= vs GET /v1/leads, pages of ${pageSize}, 100,000 leads in one campaign, ${backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}, no ANALYZE`,
  },
  async (bench) => {
    bench.set('page', `${pageSize} leads, offsets ${offsets.join(', ')}, ${requests} requests each, one at a time`);
    let storeArgs: StoreArgs;
    let cleanup: () => Promise<void>;
    if (backend === 'postgres') {
      const url = databaseUrl();
      if (!url) throw new Error('set DATABASE_URL');
      const scratch = await createScratchDatabase(url);
      storeArgs = ['--database-url', scratch.url];
      cleanup = () => scratch.drop();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'ocs-bench-leads-list-'));
      storeArgs = ['--data-dir', dir];
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
    try {
      const { organizationId, key } = createOrganizationKey(storeArgs);
      const setupStarted = performance.now();
      const store =
        backend === 'postgres'
          ? await openSqlStore({ databaseUrl: storeArgs[1] })
          : await openSqlStore({ dataDir: storeArgs[1] });
      const [owner] = await store.client.query<{ id: string }>(
        'select id from users where organization_id = $1 limit 1',
        [organizationId],
      );
      if (!owner) throw new Error('the organization has no user');
      const data = await buildLeadListData(store.client, organizationId, owner.id, campaignLeads, otherLeads);
      await store.close();
      bench.set('set-up', `${((performance.now() - setupStarted) / 1000).toFixed(1)} s of bulk SQL`);

      const server = await startServer(storeArgs, { raiseLimits: true });
      try {
        const client = createClient({ apiKey: key, baseUrl: `${server.origin}/v1`, maxRetries: 0 });
        const page = async (offset: number, campaignId?: string) => {
          const started = performance.now();
          const pages = paginate(
            client,
            listLeads,
            { offset, ...(campaignId ? { campaign_id: campaignId } : {}) },
            {
              pageSize,
              maxItems: pageSize,
            },
          ).pages();
          const first = await pages.next();
          const ms = performance.now() - started;
          if (first.done) throw new Error('no page');
          return { ms, items: first.value.items.length, total: Number(first.value.total) };
        };
        for (const offset of offsets) {
          const filtered: number[] = [];
          const unfiltered: number[] = [];
          const problems: string[] = [];
          await page(offset, data.campaignId); // warm-up
          await page(offset);
          for (let i = 0; i < requests; i++) {
            const f = await page(offset, data.campaignId);
            const u = await page(offset);
            filtered.push(f.ms);
            unfiltered.push(u.ms);
            if (f.total !== data.listed) problems.push(`filtered total ${f.total} (want ${data.listed})`);
            if (u.total !== data.liveLeads) problems.push(`unfiltered total ${u.total} (want ${data.liveLeads})`);
            if (f.items !== u.items) problems.push(`page sizes ${f.items} and ${u.items}`);
          }
          bench.progress(
            `offset ${offset}: filtered p50 ${median(filtered).toFixed(1)} ms, unfiltered p50 ${median(unfiltered).toFixed(1)} ms`,
          );
          bench.add(
            compare({
              name: `filtered / unfiltered page time, offset ${offset}`,
              subject: { label: 'GET /v1/leads?campaign_id=', unit: 'ms', samples: filtered },
              baseline: { label: 'GET /v1/leads', unit: 'ms', samples: unfiltered },
              target: { op: '<=', value: 3 },
              checks: [
                {
                  name: 'total exact, pages of one size',
                  met: problems.length === 0,
                  detail: problems.length === 0 ? `totals ${data.listed} and ${data.liveLeads}` : problems.join('; '),
                },
              ],
            }),
          );
        }
      } finally {
        await stop(server.child);
      }
    } finally {
      await cleanup();
    }
  },
);
