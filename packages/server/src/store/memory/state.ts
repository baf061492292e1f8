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
import { DataVersion, Table } from './table.ts';

/** A row of `MemoryState.enrolmentDue`: `due_ms` -Infinity when not known, null when nothing is pending. */
export interface EnrolmentDue {
  due_at: string | null;
  due_ms: number | null;
  mark: number;
}

export class MemoryState {
  /** `journal` is null for the store's own view (no transaction) and set for a transaction's. */
  constructor(readonly journal: Journal | null = null) {}

  /** Moved on by every change of any table (declared first: the tables below take it). */
  readonly version = new DataVersion();

  readonly organizations = new Table<OrganizationRecord>(null, this.version);
  readonly users = new Table<UserRecord>(null, this.version);
  readonly apiKeys = new Table<ApiKeyRecord>(null, this.version);
  readonly accounts = new Table<SenderAccountRecord>(null, this.version);
  /** Keyed by token. */
  readonly connectLinks = new Table<ConnectLinkRecord>(null, this.version);
  readonly campaigns = new Table<CampaignRecord>(null, this.version);
  readonly aiFields = new Table<AiFieldRecord>(null, this.version);
  readonly responders = new Table<ResponderSettingsRecord>(null, this.version);
  readonly webhooks = new Table<WebhookRecord>(null, this.version);
  readonly leads = new Table<LeadRecord>(null, this.version);
  readonly enrolments = new Table<EnrolmentRecord>(null, this.version, {
    lead: (e) => e.lead_id,
    campaign: (e) => e.campaign_id,
  });
  /**
   * The engine's schedule, by enrolment ID (`EnrolmentStore.listDue`): a lower bound of the
   * next step's due time, null when nothing is pending. No row: not known (due now), mark 0.
   */
  readonly enrolmentDue = new Table<EnrolmentDue>(null, this.version);
  readonly pipelines = new Table<PipelineRecord>(null, this.version);
  readonly stages = new Table<StageRecord>(null, this.version);
  readonly deals = new Table<DealRecord>(null, this.version);
  readonly idempotency = new Table<IdempotencyRecord>(null, this.version);
  readonly rateLimits = new Table<{ count: number; window_start: string }>(null, this.version);
  readonly activity = new Table<ActivityEventRecord>(null, this.version, {
    enrolment: (e) => e.enrolment_id,
    campaign: (e) => e.campaign_id,
    lead: (e) => e.lead_id,
  });
  readonly bookings = new Table<BookingRecord>(null, this.version);
  readonly messages = new Table<SandboxMessageRecord>(null, this.version);
  /** Sandbox mode's shared state, one row (`clock`). */
  readonly sandbox = new Table<{ offset_ms: number }>(null, this.version);
  /** The outbox; each row carries its attempts (see `deliveries.ts`). */
  readonly deliveries = new Table<DeliveryWithAttempts>(null, this.version);

  /** A view of the same tables whose writes are journaled, for one transaction. */
  inTransaction(journal: Journal): MemoryState {
    const view = new MemoryState(journal);
    for (const [name, value] of Object.entries(this)) {
      if (value instanceof Table) (view as unknown as Record<string, unknown>)[name] = value.withJournal(journal);
    }
    // The view's tables are this state's rows (and version): so is its version.
    (view as unknown as { version: DataVersion }).version = this.version;
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
