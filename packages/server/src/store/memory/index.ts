/**
 * The memory store: plain maps, for the mock and fast tests. Transactions run one at a time
 * (a queue) and undo their writes from a journal when they throw, so a failed multi-step
 * write leaves nothing behind, as on PostgreSQL.
 */
import type { Store, TransactionOptions } from '../types.ts';
import { memoryActivity, memoryBookings } from './activity.ts';
import { memoryAiFields, memoryCampaigns, memoryResponders, memoryWebhooks } from './campaigns.ts';
import { memoryApiKeys, memoryIdempotency, memoryOrganizations, memoryRateLimits } from './core.ts';
import { memoryMessages } from './messages.ts';
import { memorySandbox } from './sandbox.ts';
import { memoryDeliveries } from './deliveries.ts';
import { memoryDeals, memoryPipelines } from './crm.ts';
import { memoryAccounts, memoryEnrolments, memoryLeads } from './leads.ts';
import { MemoryState, type MemorySnapshot } from './state.ts';
import { Journal } from './table.ts';

export type { MemorySnapshot } from './state.ts';

export interface MemoryStore extends Store {
  readonly kind: 'memory';
  /** Empties every table. */
  clear(): void;
  /**
   * The state of every table, cheap to take and to restore (the mock's `reset()`: seed once,
   * snapshot, restore before each test). Call it with no request in flight.
   */
  snapshot(): MemorySnapshot;
  /** Puts every table back as it was when `snapshot` was taken. */
  restore(snapshot: MemorySnapshot): void;
  /**
   * A number that every change of any table moves on (a write, an undo by a rollback,
   * `clear`, `restore`) and that never goes back: while it reads the same, nothing changed.
   */
  dataVersion(): number;
  /** `listener` runs after every change of any table, synchronously, inside the write. */
  onDataChange(listener: () => void): void;
}

function bindStores(state: MemoryState) {
  return {
    organizations: memoryOrganizations(state),
    apiKeys: memoryApiKeys(state),
    accounts: memoryAccounts(state),
    campaigns: memoryCampaigns(state),
    aiFields: memoryAiFields(state),
    responders: memoryResponders(state),
    webhooks: memoryWebhooks(state),
    leads: memoryLeads(state),
    enrolments: memoryEnrolments(state),
    pipelines: memoryPipelines(state),
    deals: memoryDeals(state),
    idempotency: memoryIdempotency(state),
    rateLimits: memoryRateLimits(state),
    activity: memoryActivity(state),
    bookings: memoryBookings(state),
    messages: memoryMessages(state),
    sandbox: memorySandbox(state),
    deliveries: memoryDeliveries(state),
  };
}

export function createMemoryStore(): MemoryStore {
  const state = new MemoryState();
  const journal = new Journal();
  // Writes made inside a transaction go through a journaled view of the same tables, so a
  // rollback undoes exactly them and never a write of a concurrent request.
  const transactionStores = bindStores(state.inTransaction(journal));
  let queue: Promise<unknown> = Promise.resolve();

  const store: MemoryStore = {
    kind: 'memory',
    ...bindStores(state),
    transaction<T>(work: (tx: Store) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const run = async () => {
        journal.begin();
        try {
          const result = options?.snapshot ? await asOfOneMoment(() => work(inTransaction)) : await work(inTransaction);
          journal.commit();
          return result;
        } catch (error) {
          journal.rollback();
          throw error;
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {},
    // Replaced rows are dropped from the maps at once; the garbage collector frees them.
    async reclaimErased() {},
    async refreshStatistics() {
      return [];
    },
    async vacuumWhereNeeded() {
      return [];
    },
    clear() {
      state.clear();
    },
    snapshot: () => state.snapshot(),
    restore(snapshot) {
      state.restore(snapshot);
    },
    dataVersion: () => state.version.value,
    onDataChange: (listener) => state.version.onChange(listener),
  };
  // Inside a transaction, nested transactions join the running one instead of queueing
  // behind it (which would wait forever), behind a rollback mark: one that throws undoes its
  // own writes only, as a savepoint does on SQL, so a caller may catch and try again.
  const nested = async <T>(work: (tx: Store) => Promise<T>): Promise<T> => {
    const mark = journal.mark();
    try {
      return await work(inTransaction);
    } catch (error) {
      journal.rollbackTo(mark);
      throw error;
    }
  };
  const inTransaction: Store = { ...store, ...transactionStores, transaction: nested };
  /**
   * `read` again while a write outside any transaction (the engine's bounds, a sandbox
   * event: the memory store's transactions hold back only each other) changed the data
   * during it, at most `snapshotTries` times in all: a `snapshot` transaction's reads.
   */
  const asOfOneMoment = async <T>(read: () => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      const before = state.version.value;
      const result = await read();
      if (state.version.value === before || tries === snapshotTries) return result;
    }
  };
  return store;
}

/** Reads of a `snapshot` transaction run at most this many times while writes keep coming. */
const snapshotTries = 5;
