/** All tables of the memory store, sharing one journal for transactions. */
import type {
  ActivityEventRecord,
  AiFieldRecord,
  ApiKeyRecord,
  BookingRecord,
  CampaignRecord,
  ConnectLinkRecord,
  DealRecord,
  EnrolmentRecord,
  IdempotencyRecord,
  LeadRecord,
  OrganizationRecord,
  PipelineRecord,
  ResponderSettingsRecord,
  SandboxMessageRecord,
  SenderAccountRecord,
  StageRecord,
  UserRecord,
  WebhookRecord,
} from '../records.ts';
import type { DeliveryWithAttempts } from '../types.ts';
import type { Journal } from './table.ts';
import { Table } from './table.ts';

export class MemoryState {
  /** `journal` is null for the store's own view (no transaction) and set for a transaction's. */
  constructor(readonly journal: Journal | null = null) {}

  readonly organizations = new Table<OrganizationRecord>(null);
  readonly users = new Table<UserRecord>(null);
  readonly apiKeys = new Table<ApiKeyRecord>(null);
  readonly accounts = new Table<SenderAccountRecord>(null);
  /** Keyed by token. */
  readonly connectLinks = new Table<ConnectLinkRecord>(null);
  readonly campaigns = new Table<CampaignRecord>(null);
  readonly aiFields = new Table<AiFieldRecord>(null);
  readonly responders = new Table<ResponderSettingsRecord>(null);
  readonly webhooks = new Table<WebhookRecord>(null);
  readonly leads = new Table<LeadRecord>(null);
  readonly enrolments = new Table<EnrolmentRecord>(null);
  readonly pipelines = new Table<PipelineRecord>(null);
  readonly stages = new Table<StageRecord>(null);
  readonly deals = new Table<DealRecord>(null);
  readonly idempotency = new Table<IdempotencyRecord>(null);
  readonly rateLimits = new Table<{ count: number; window_start: string }>(null);
  readonly activity = new Table<ActivityEventRecord>(null);
  readonly bookings = new Table<BookingRecord>(null);
  readonly messages = new Table<SandboxMessageRecord>(null);
  /** Sandbox mode's shared state, one row (`clock`). */
  readonly sandbox = new Table<{ offset_ms: number }>(null);
  /** The outbox; each row carries its attempts (see `deliveries.ts`). */
  readonly deliveries = new Table<DeliveryWithAttempts>(null);

  /** A view of the same tables whose writes are journaled, for one transaction. */
  inTransaction(journal: Journal): MemoryState {
    const view = new MemoryState(journal);
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Table) (view as unknown as Record<string, unknown>)[name] = value.withJournal(journal);
    }
    return view;
  }

  /** Empties every table (the mock's reset). */
  clear(): void {
    for (const value of Object.values(this)) if (value instanceof Table) value.clear();
  }

  /** Every table's rows, by table name (see `Table.snapshot`). */
  snapshot(): MemorySnapshot {
    const tables = new Map<string, ReadonlyMap<string, unknown>>();
    for (const [name, value] of Object.entries(this)) if (value instanceof Table) tables.set(name, value.snapshot());
    return { tables };
  }

  /** Puts every table back as it was in `snapshot`; a table it does not hold is emptied. */
  restore(snapshot: MemorySnapshot): void {
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Table) value.restore(snapshot.tables.get(name) ?? new Map());
    }
  }
}

/** What `MemoryState.snapshot` returns: opaque to callers, who only pass it to `restore`. */
export interface MemorySnapshot {
  readonly tables: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
}
