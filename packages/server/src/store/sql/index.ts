/**
 * The SQL store, in the PostgreSQL dialect: embedded PGlite by default, a PostgreSQL server
 * when `DATABASE_URL` is set. Migrations run when it opens.
 */
import type { Store } from '../types.ts';
import { sqlActivity, sqlBookings } from './activity.ts';
import { sqlMessages } from './messages.ts';
import { sqlSandbox } from './sandbox.ts';
import { sqlDeliveries } from './deliveries.ts';
import { sqlAiFields, sqlCampaigns, sqlResponders, sqlWebhooks } from './campaigns.ts';
import type { SqlClient } from './client.ts';
import { sqlApiKeys, sqlIdempotency, sqlOrganizations } from './core.ts';
import { sqlDeals, sqlPipelines } from './crm.ts';
import { sqlAccounts, sqlEnrolments, sqlLeads } from './leads.ts';
import { erasureReclaimer } from './erasure-reclaim.ts';
import { migrate } from './migrate.ts';
import { gatherStaleStatistics } from './planner-statistics.ts';
import { vacuumWhereNeeded } from './vacuum-where-needed.ts';
import { sqlRateLimits } from './rate-limit-counters.ts';

export { migrate };

export interface SqlStore extends Store {
  readonly kind: 'pglite' | 'postgres';
  readonly client: SqlClient;
}

/**
 * The stores over `client`. `inTransaction`: `client` is one transaction's connection, on
 * which reads run alone (outside one, concurrent reads by ID share statements: reads-by-id.ts).
 */
export function sqlStoreOn(client: SqlClient, { inTransaction = false } = {}): SqlStore {
  const shared = !inTransaction;
  // One per store: it remembers an erasure whose vacuum must run again (`VACUUM` cannot run
  // in a transaction, so a transaction's stores have none).
  const reclaimer = inTransaction ? undefined : erasureReclaimer(client, erasedTables);
  return {
    kind: client.kind,
    client,
    organizations: sqlOrganizations(client),
    apiKeys: sqlApiKeys(client),
    accounts: sqlAccounts(client),
    campaigns: sqlCampaigns(client, shared),
    aiFields: sqlAiFields(client),
    responders: sqlResponders(client),
    webhooks: sqlWebhooks(client),
    leads: sqlLeads(client, shared),
    enrolments: sqlEnrolments(client),
    pipelines: sqlPipelines(client),
    deals: sqlDeals(client),
    idempotency: sqlIdempotency(client),
    rateLimits: sqlRateLimits(client),
    activity: sqlActivity(client),
    bookings: sqlBookings(client),
    messages: sqlMessages(client),
    sandbox: sqlSandbox(client),
    deliveries: sqlDeliveries(client),
    reclaimErased: (log) =>
      reclaimer ? reclaimer.reclaim(log) : Promise.reject(new Error('reclaimErased must run outside a transaction')),
    refreshStatistics: () => gatherStaleStatistics(client),
    // `VACUUM` cannot run in a transaction.
    vacuumWhereNeeded: (analyzedJustNow) =>
      inTransaction
        ? Promise.reject(new Error('vacuumWhereNeeded must run outside a transaction'))
        : vacuumWhereNeeded(client, analyzedJustNow),
    transaction: (work, options) =>
      client.transaction(async (tx) => {
        // First in the transaction, as PostgreSQL requires; a nested call joins the outer one as it is.
        if (options?.snapshot && !inTransaction) {
          await tx.query('set transaction isolation level repeatable read, read only');
        }
        return work(sqlStoreOn(tx, { inTransaction: true }));
      }),
    async close() {
      await reclaimer?.close();
      await client.close();
    },
  };
}

export interface SqlStoreOptions {
  /** A PostgreSQL connection string; without it, embedded PGlite. */
  databaseUrl?: string;
  /** PGlite's data directory; without it, PGlite keeps everything in memory. */
  dataDir?: string;
  /** PostgreSQL schema (tests isolate suites with one each); created when missing. */
  schema?: string;
  /** Leave migrations to the caller (the CLI's `migrate` reports what it applied). */
  skipMigrations?: boolean;
}

export async function openSqlStore(options: SqlStoreOptions = {}): Promise<SqlStore> {
  let client: SqlClient;
  if (options.databaseUrl) {
    const { createPgClient } = await import('./pg-client.ts');
    if (options.schema) {
      const admin = await createPgClient({ connectionString: options.databaseUrl, max: 1 });
      await admin.query(`create schema if not exists "${options.schema.replaceAll('"', '')}"`);
      await admin.close();
    }
    client = await createPgClient({ connectionString: options.databaseUrl, schema: options.schema });
  } else {
    const { createPgliteClient } = await import('./pglite-client.ts');
    client = await createPgliteClient(options.dataDir);
  }
  if (!options.skipMigrations) {
    try {
      const applied = await migrate(client);
      // Statistics for the plans after a migration changed tables that hold data (decision
      // 0006); a fresh database (migration 1 applied now) has none to gather.
      if (applied.length > 0 && !applied.includes(1)) await client.query('analyze');
    } catch (error) {
      // Closed, so that PGlite shuts its database down cleanly (and the caller has no store to close).
      await client.close().catch(() => undefined);
      throw error;
    }
  }
  return sqlStoreOn(client);
}

/** The tables an erasure writes (domain/erasure.ts): where its dead row versions are. */
export const erasedTables = [
  'leads',
  'activity_events',
  'bookings',
  'sandbox_messages',
  'deliveries',
  'deals',
  'idempotency_keys',
] as const;
