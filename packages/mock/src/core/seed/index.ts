/**
 * Seeding: the organization, its members, API key, sender accounts and default pipeline
 * (the server's demo seed, in the store: the API has no operations to create them), then
 * the campaigns and leads (the seed's or the test's fixtures) through the API. IDs come from
 * the seeded source, so the same seed and fixtures give the same IDs on every run.
 */
import { type App, createApiKey, type MemoryStore, seedDemoOrganization, withIdSource } from '@ocs/server';
import { inProcessCaller } from '../in-process.ts';
import type { Clock, OcsMockFixtures } from '../options.ts';
import { readData, type SeededData } from './data.ts';
import { seededFixtures } from './dataset.ts';
import { createFixtures } from './fixtures.ts';
import { type SeededRandom, seededRandom } from './random.ts';

export interface SeedOptions {
  seed: number;
  fixtures: OcsMockFixtures | undefined;
  /** Origin the in-process requests use (the mock's). */
  origin: string;
  clock: Clock;
}

/** What seeding made: the data, and the key `mock.sandbox` calls the application with. */
export interface Seeded {
  data: SeededData;
  /**
   * A second key of the organization, with every scope, never shown to the test: the
   * mock's rate limits exempt it, so sandbox conveniences leave the test's budget alone.
   */
  sandboxKey: { key: string; id: string };
}

// The ID source is process-wide while a seed runs (withIdSource), so two mocks created at
// once take turns; each seed takes a few milliseconds.
let queue: Promise<unknown> = Promise.resolve();

export function seed(app: App, store: MemoryStore, options: SeedOptions): Promise<Seeded> {
  const run = () => seedNow(app, store, options);
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

async function seedNow(app: App, store: MemoryStore, options: SeedOptions): Promise<Seeded> {
  // Separate streams, so that a change in how many IDs the server draws never changes the
  // generated names or the key.
  const ids = seededRandom(options.seed);
  const names = seededRandom(options.seed ^ 0x6e616d65);
  const apiKey = `ocs_${seededRandom(options.seed ^ 0x6b657973).base62(40)}`;
  // One time for everything seeded in the store: accounts are listed by connection time,
  // so two readings of the clock could order them differently from one run to the next.
  const now = options.clock.now();
  return withIdSource(ids.uuid, async () => {
    const demo = await seedDemoOrganization(store, { name: 'Northwind Outreach', key: apiKey, now, ids: ids.uuid });
    await addFreeAccounts(store, demo.organizationId, now, names);
    const call = inProcessCaller(app, options.origin, apiKey);
    const { accounts } = await call<{ accounts: Parameters<typeof createFixtures>[2] }>('GET', '/accounts?limit=500');
    const created = await createFixtures(call, options.fixtures ?? seededFixtures(names), accounts);
    const data = await readData(call, store, demo.organizationId, apiKey, created);
    // Last, so that its record ID, drawn from the seeded source, shifts no seeded ID.
    const sandbox = await createApiKey(store, {
      organizationId: demo.organizationId,
      name: '@ocs/mock sandbox conveniences',
      now,
    });
    return { data, sandboxKey: { key: sandbox.key, id: sandbox.record.id } };
  });
}

type AccountRecord = Parameters<MemoryStore['accounts']['insert']>[0];

/**
 * The demo seed's connected accounts all send for the seeded active campaigns; two more,
 * free, let a test launch a campaign of its own without deactivating one first.
 */
async function addFreeAccounts(store: MemoryStore, organizationId: string, now: Date, random: SeededRandom) {
  const at = now.toISOString();
  const common = { organization_id: organizationId, status: 'connected' as const, connected_at: at, created_at: at };
  const accounts: AccountRecord[] = [
    {
      ...common,
      id: `acc_em_${random.base62(8)}`,
      platform: 'email',
      label: 'growth@demo-outreach.example',
      email: 'growth@demo-outreach.example',
      platform_username: 'growth@demo-outreach.example',
      daily_limit: 50,
      email_auth: { spf: true, dkim: true, dmarc: true },
    },
    {
      ...common,
      id: `acc_li_${random.base62(8)}`,
      platform: 'linkedin',
      label: 'Noor Haddad',
      email: null,
      platform_username: 'noor-haddad-demo',
      daily_limit: 40,
      email_auth: null,
    },
  ];
  for (const account of accounts) await store.accounts.insert(account);
}
