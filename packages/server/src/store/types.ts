/**
 * The store: persistence only. Every rule of the API lives above it, once; the store finds,
 * inserts and updates records, scoped to an organization where the records belong to one.
 * Two implementations pass one contract suite: SQL (PGlite or PostgreSQL) and memory.
 */
import { type ActivityEvent, connectionKinds } from '../domain/activity.ts';
import type {
  ActivityEventRecord,
  ActivityKind,
  AiFieldRecord,
  ApiKeyRecord,
  BookingRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  CampaignRecord,
  ConnectLinkRecord,
  DealRecord,
  EnrolmentRecord,
  EnrolmentStatus,
  EnrolmentWithLeadRecord,
  IdempotencyRecord,
  LeadRecord,
  OrganizationRecord,
  PipelineRecord,
  PlaceholderFill,
  ResponderSettingsRecord,
  SenderAccountRecord,
  Sequence,
  StageRecord,
  SandboxMessageRecord,
  UserRecord,
  WebhookRecord,
} from './records.ts';

export interface PageRequest {
  limit: number;
  offset: number;
}

/**
 * A page bounded by the bytes of its rows' text too (decision 0006, "Sandbox pages bounded by
 * size"): at most `limit` rows, and among them only those whose texts, added up in order, stay
 * within `maxTextBytes` UTF-8 bytes, the first row always (`takeWithinBytes`, `page-bytes.ts`).
 * Without `maxTextBytes`, `limit` rows.
 */
export interface SizedPageRequest extends PageRequest {
  maxTextBytes?: number;
}

export interface Page<T> {
  items: T[];
  /** Items matching across all pages. */
  total: number;
}

export interface OrganizationStore {
  get(id: string): Promise<OrganizationRecord | null>;
  list(): Promise<OrganizationRecord[]>;
  insert(record: OrganizationRecord): Promise<void>;
  update(id: string, patch: Partial<Omit<OrganizationRecord, 'id'>>): Promise<OrganizationRecord | null>;
  insertMember(record: UserRecord): Promise<void>;
  listMembers(organizationId: string): Promise<UserRecord[]>;
  getMember(organizationId: string, userId: string): Promise<UserRecord | null>;
}

export interface ApiKeyStore {
  insert(record: ApiKeyRecord): Promise<void>;
  /** The key with that hash and its organization, in one read (it runs on every request). */
  findByHash(keyHash: string): Promise<{ key: ApiKeyRecord; organization: OrganizationRecord } | null>;
  get(id: string): Promise<ApiKeyRecord | null>;
  listForOrganization(organizationId: string): Promise<ApiKeyRecord[]>;
  revoke(id: string, at: string): Promise<ApiKeyRecord | null>;
  /** Gives a key that is not revoked a new secret (its hash and display prefix); null when there is none such. */
  replaceSecret(id: string, secret: Pick<ApiKeyRecord, 'prefix' | 'key_hash'>): Promise<ApiKeyRecord | null>;
}

export interface SenderAccountStore {
  insert(record: SenderAccountRecord): Promise<void>;
  get(organizationId: string, id: string): Promise<SenderAccountRecord | null>;
  /**
   * The accounts with those IDs, in the order given (unknown IDs left out). With `forUpdate`,
   * their rows are locked in ID order until the surrounding transaction ends, so that
   * activations and sender assignments sharing an account run one after the other.
   */
  getMany(organizationId: string, ids: string[], options?: { forUpdate?: boolean }): Promise<SenderAccountRecord[]>;
  /** Oldest `connected_at` first (never connected last), ties by `id`. */
  list(
    organizationId: string,
    filter: { platform?: string; status?: string } & PageRequest,
  ): Promise<Page<SenderAccountRecord>>;
  update(
    organizationId: string,
    id: string,
    patch: Partial<Omit<SenderAccountRecord, 'id' | 'organization_id'>>,
  ): Promise<SenderAccountRecord | null>;
  /**
   * For each of `accountIds`, the campaigns of the organization that have it among their
   * `enabled_accounts`, active or not: by account ID, then oldest campaign first, ties by
   * campaign `id`.
   */
  listCampaignUses(
    organizationId: string,
    accountIds: string[],
  ): Promise<Array<{ account_id: string; campaign_id: string }>>;
  /**
   * The organization's account of one sender: the mailbox with that address, or the LinkedIn
   * account with that username, in any case (`lower`, as leads' emails); the oldest if the
   * organization has several. On SQL a transaction-scoped advisory lock on that sender is
   * taken first and held until the surrounding transaction ends, so that two transactions
   * adding the same sender run one after the other and the second finds the first's account:
   * call it in the transaction that inserts the account.
   */
  findSender(
    organizationId: string,
    platform: SenderAccountRecord['platform'],
    identity: string,
  ): Promise<SenderAccountRecord | null>;
  /** Tokens are unique: a duplicate throws `UniqueViolation` (`connect_links_pkey`). */
  insertConnectLink(record: ConnectLinkRecord): Promise<void>;
  /** The link with that token, used or expired included. */
  getConnectLink(token: string): Promise<ConnectLinkRecord | null>;
  /**
   * Marks the link used at `at` if, at that moment, it is unused and expires after `at`, in one
   * step: of two callers racing for one link exactly one gets it (SQL: the row's lock holds the
   * second until the first's transaction ends, then it sees the link used). The claimed link,
   * or null when there is no such link or it is used or expired. Call it in the transaction
   * that writes what the link is for, so that a failure leaves the link unused.
   */
  claimConnectLink(token: string, at: string): Promise<ConnectLinkRecord | null>;
  /**
   * Records on a used link the account it added (its `account_id`, null until then for a
   * link that adds one), in the claim's transaction: a repeat of the finished page (a reload
   * that sends the form again) then answers as the first did.
   */
  recordConnectLinkAccount(token: string, accountId: string): Promise<void>;
}

export type CampaignPatch = Partial<
  Omit<CampaignRecord, 'id' | 'organization_id' | 'created_at' | 'sequence' | 'sequence_version'>
>;

/**
 * The fingerprint of a key whose request named a lead since erased. A fingerprint is two
 * SHA-256 digests, `<method and route>.<method, route and body>` (`IdempotencyKeys.begin`).
 * The second hashes the request's body, the lead's email and names included: kept, it would
 * let a holder of the key test a guess of the erased data (the same body replays, any other is
 * refused). So it becomes `erased`: a request with such a key to the same operation replays the
 * erased answer whatever its body, and one to another operation is refused as before. A
 * fingerprint of the older form (the second digest alone) has no route to keep: it becomes one
 * that no request matches.
 */
export function erasedFingerprint(fingerprint: string): string {
  const dot = fingerprint.indexOf('.');
  return `${dot > 0 ? fingerprint.slice(0, dot) : 'erased'}${erasedSuffix}`;
}

/** What ends an erased fingerprint; the SQL store writes the same (`sql/core.ts`). */
export const erasedSuffix = '.erased';

/**
 * Whether a campaign's update may bring its leads' steps earlier, so that the engine's
 * schedule must be worked out again (`EnrolmentStore.markCampaignDue`; a new sequence always
 * does). A promoted arm changes which steps a lead of the other arm follows; the A/B settings
 * change the arm a lead without one is drawn into, whose first steps may come due at other
 * times (a conditional first). An activation only ever moves the start later, which the
 * schedule's lower bounds already allow for.
 */
export function movesDueTimes(patch: CampaignPatch): boolean {
  return patch.ab_winner !== undefined || patch.ab_testing_enabled !== undefined || patch.traffic_split !== undefined;
}

export interface CampaignStore {
  insert(record: CampaignRecord): Promise<void>;
  /**
   * With `forUpdate`, the row is locked until the surrounding transaction ends, as an update
   * locks it (PostgreSQL's `no key update`): writers of the campaign wait for each other, the
   * foreign-key checks of rows inserted for it (a step's event) do not wait for them.
   */
  get(organizationId: string, id: string, options?: { forUpdate?: boolean }): Promise<CampaignRecord | null>;
  /** Newest first, ties by `id`. */
  list(organizationId: string, filter: { is_active?: boolean } & PageRequest): Promise<Page<CampaignRecord>>;
  update(organizationId: string, id: string, patch: CampaignPatch): Promise<CampaignRecord | null>;
  /**
   * Saves a sequence only if its version is still `expectedVersion` (compare-and-swap), and
   * increments the version. `modified` means another write came first.
   */
  replaceSequence(
    organizationId: string,
    id: string,
    sequence: Sequence | [],
    expectedVersion: number,
    updatedAt: string,
  ): Promise<{ outcome: 'saved'; campaign: CampaignRecord } | { outcome: 'modified' | 'not_found' }>;
  /** Every active campaign of every organization, oldest first (the engine's round). */
  listAllActive(): Promise<CampaignRecord[]>;
  /** Active campaigns other than `exceptCampaignId` that send from any of `accountIds`. */
  findActiveUsingAccounts(
    organizationId: string,
    accountIds: string[],
    exceptCampaignId: string,
  ): Promise<Array<{ account_id: string; campaign_id: string; campaign_name: string }>>;
}

export interface AiFieldStore {
  insert(record: AiFieldRecord): Promise<void>;
  get(campaignId: string, id: string): Promise<AiFieldRecord | null>;
  /** Oldest first, ties by `id`. */
  list(campaignId: string): Promise<AiFieldRecord[]>;
  update(
    campaignId: string,
    id: string,
    patch: Partial<Omit<AiFieldRecord, 'id' | 'organization_id' | 'campaign_id' | 'created_at'>>,
  ): Promise<AiFieldRecord | null>;
}

export interface ResponderStore {
  get(campaignId: string): Promise<ResponderSettingsRecord | null>;
  upsert(record: ResponderSettingsRecord): Promise<void>;
}

export interface WebhookStore {
  /**
   * Throws `UniqueViolation` when the campaign already has a webhook with the URL
   * (`webhooks_campaign_id_url_key`) or, for an enabled one, an enabled webhook
   * (`webhooks_one_enabled`: the campaign's one slot); `update` does the same.
   */
  insert(record: WebhookRecord): Promise<void>;
  get(campaignId: string, id: string): Promise<WebhookRecord | null>;
  findByUrl(campaignId: string, url: string): Promise<WebhookRecord | null>;
  /** Every enabled webhook of the campaign (the slot holder; normally at most one). */
  listEnabled(campaignId: string): Promise<WebhookRecord[]>;
  /** Oldest first, ties by `id`; disabled webhooks included. */
  list(campaignId: string, page: PageRequest): Promise<Page<WebhookRecord>>;
  update(
    campaignId: string,
    id: string,
    patch: Partial<Pick<WebhookRecord, 'url' | 'enabled' | 'secret' | 'updated_at'>>,
  ): Promise<WebhookRecord | null>;
}

export type LeadPatch = Partial<Omit<LeadRecord, 'id' | 'organization_id' | 'created_at' | 'deleted_at'>>;

export interface LeadStore {
  /**
   * Throws `UniqueViolation` (`leads_email`) when a live lead of the organization already has
   * the email, compared case-insensitively; `update` does the same.
   */
  insert(record: LeadRecord): Promise<void>;
  /**
   * The batch import's insert, one statement: inserts each record whose email no live lead
   * of the organization holds (compared case-insensitively; a record without email always
   * is), and answers, per record in order, the live lead holding it: the record itself
   * (`inserted`) or the existing lead, unchanged. No two records may share an email.
   */
  insertMissing(records: LeadRecord[]): Promise<Array<{ lead: LeadRecord; inserted: boolean }>>;
  /**
   * A lead that is not deleted. With `lock`, its row is locked until the surrounding
   * transaction ends: `update` for a write that reads the lead first (an erasure, a change
   * checked against the lead as it is), `share` for a write that copies or points at it (a
   * deal), so that an erasure either waits for that write and erases what it wrote, or
   * comes first and the write finds no lead.
   */
  get(organizationId: string, id: string, options?: { lock?: 'update' | 'share' }): Promise<LeadRecord | null>;
  getMany(organizationId: string, ids: string[]): Promise<LeadRecord[]>;
  /** The live lead with this email, compared case-insensitively. */
  findByEmail(organizationId: string, email: string): Promise<LeadRecord | null>;
  /** Newest first, ties by `id`; deleted leads never appear. */
  list(
    organizationId: string,
    filter: { campaign_id?: string; email?: string } & PageRequest,
  ): Promise<Page<LeadRecord>>;
  update(organizationId: string, id: string, patch: LeadPatch): Promise<LeadRecord | null>;
  /** Overwrites every personal field in place and marks the row deleted; the row stays. */
  erase(organizationId: string, id: string, at: string): Promise<boolean>;
  /** The row as stored, deleted or not: after `erase`, the anonymised record of past activity. */
  getRow(organizationId: string, id: string): Promise<LeadRecord | null>;
}

export interface EnrolmentStore {
  /** Throws `UniqueViolation` (`enrolments_live`) when the lead has a live enrolment in the campaign. */
  insert(record: EnrolmentRecord): Promise<void>;
  /** Inserts every record in one statement, all or none; throws as `insert` does. */
  insertMany(records: EnrolmentRecord[]): Promise<void>;
  /**
   * The lead's live (not removed) enrolment in the campaign. With `forUpdate`, the row is
   * locked until the surrounding transaction ends: a reply and a step of one sequence lead
   * take this lock, so each sees what the other wrote.
   */
  find(campaignId: string, leadId: string, options?: { forUpdate?: boolean }): Promise<EnrolmentRecord | null>;
  /**
   * The lead's live enrolments, oldest first. With `forUpdate`, their rows are locked (in ID
   * order) until the surrounding transaction ends: the lock a step and a reply take, so that
   * an erasure waits for them and they see it (`find` with `forUpdate`).
   */
  listForLead(leadId: string, options?: { forUpdate?: boolean }): Promise<EnrolmentRecord[]>;
  listForLeads(leadIds: string[]): Promise<EnrolmentRecord[]>;
  /** Live enrolments of a campaign whose lead is not deleted. */
  countForCampaign(campaignId: string): Promise<number>;
  /** The leads of the campaign's live enrolments that are not deleted, by `enrolled_at`, ties by enrolment `id`. */
  listLeadsForCampaign(campaignId: string): Promise<LeadRecord[]>;
  /**
   * With `due`, also writes the enrolment's bound as `setDue` does (where its mark is still
   * `due.mark`), in the same statement: what a step's run writes.
   */
  update(
    id: string,
    patch: Partial<Pick<EnrolmentRecord, 'status' | 'variation' | 'removed_at'>>,
    due?: Omit<DueEntry, 'id'>,
  ): Promise<void>;
  /**
   * The engine's schedule (decision 0002, "Due times"). Each enrolment holds a lower bound of
   * when its next step comes due: not known (a new enrolment, or one `markDue` reached: due
   * now), a time, or nothing pending. The enrolments of the campaign whose bound is at or
   * before `at` (not known included), as `listEnrolments` gives them, with their marks and
   * their leads' `updated_at`.
   */
  listDue(campaignId: string, at: string): Promise<DueEnrolment[]>;
  /** The earliest bound after `at` among the campaign's enrolments, or null. */
  earliestDueAfter(campaignId: string, at: string): Promise<string | null>;
  /**
   * The campaign's enrolments that have a bound (something may be pending), in the order of
   * their bounds, ties by ID (not known, the epoch, first), as `listEnrolments` gives them,
   * `pageSize` at a time: what the queue reads. The pages come from one read, so they agree
   * with each other however long the reader takes between them (SQL: one statement through a
   * cursor, which lives only inside a transaction: call it in one). Leaving the loop early
   * ends the read.
   */
  pagesByBound(campaignId: string, pageSize: number): AsyncIterable<BoundedEnrolment[]>;
  /**
   * Writes each entry's bound (`due_at` null: nothing pending) where the enrolment's mark is
   * still `mark` (what `listDue` read), and moves the mark on; the others are left as they are.
   * Returns how many were written.
   */
  setDue(entries: readonly DueEntry[]): Promise<number>;
  /**
   * Makes the bound of every enrolment of the campaign not known (a change that may bring
   * steps earlier: a sequence edit, a promoted arm, other A/B settings), and moves their marks on.
   */
  markCampaignDue(campaignId: string): Promise<void>;
}

/** Whether an event changes its lead's path through the sequence (`ActivityStore.insert`). */
export function decidesPath(record: Pick<ActivityEventRecord, 'kind' | 'step_id'>): boolean {
  return record.step_id === null && connectionKinds.includes(record.kind);
}

/**
 * An enrolment as the engine's schedule reads it (`EnrolmentStore.listDue`), with its lead's
 * `updated_at`: read in the same join as `lead_deleted_at`, it tells the engine that a lead
 * whose step rendered too long was edited since (`TooLongSteps`), without reading the lead.
 */
export type DueEnrolment = EnrolmentWithLeadRecord & { due_mark: number; lead_updated_at: string };

export interface TransactionOptions {
  /**
   * `work` only reads, and every read sees the data as of one moment, however many
   * statements it takes: what a read in several steps needs (the queue's pages) when writers
   * run meanwhile. SQL: `REPEATABLE READ, READ ONLY` (a write in it fails). Memory: `work`
   * runs again when a write outside any transaction (which the memory store's transactions do
   * not hold back) changed the data while it ran, up to 5 times. A nested call joins the
   * outer transaction as it is.
   */
  snapshot?: boolean;
}

/** An enrolment with its bound (`EnrolmentStore.pagesByBound`): the epoch when not known. */
export type BoundedEnrolment = EnrolmentWithLeadRecord & { due_at: string };

/** A bound the engine worked out (`EnrolmentStore.setDue`). */
export interface DueEntry {
  id: string;
  due_at: string | null;
  mark: number;
}

/**
 * Which events establish an analytics fact (`factRules` in domain/analytics/facts.ts): an event
 * of one of `kinds`, and, when given, on `channel` and of `replyClass` (a reply is `ooo` when
 * `data.out_of_office` is true, otherwise its `data.sentiment`, `unclassified` when it has none).
 */
export interface FactRule {
  kinds: readonly ActivityKind[];
  channel?: 'email' | 'linkedin';
  replyClass?: 'positive' | 'neutral' | 'negative' | 'ooo' | 'unclassified';
}

/**
 * Refuses fact names `ActivityStore.firstFactDays` cannot count: `meeting` (the bookings' own
 * row) and more than 30 (PostgreSQL's `grouping()` takes at most 31 columns, one of them the
 * meetings'). A programming error, not a request's.
 */
export function checkFactNames(facts: Readonly<Record<string, FactRule>>): void {
  const names = Object.keys(facts);
  if (names.includes('meeting'))
    throw new TypeError('firstFactDays: `meeting` counts bookings; name the fact otherwise.');
  if (names.length > 30) throw new TypeError(`firstFactDays: at most 30 facts, got ${names.length}.`);
}

/** A lead's arm for counting: its enrolment's `variation`, `unassigned` until it has one. */
export type CountingCohort = 'a' | 'b' | 'unassigned';

/** A campaign's counted leads, summed (`ActivityStore.firstFactDays`). */
export interface FirstFactDays {
  /** Counted leads by cohort and enrolment status. */
  statuses: Array<{ cohort: CountingCohort; status: EnrolmentStatus; leads: number }>;
  /**
   * For each fact (and `meeting`), counted leads by cohort and the UTC day (`2026-11-02`) of
   * their first matching event (booking) in the window; a lead without one is in no row.
   */
  days: Array<{ cohort: CountingCohort; fact: string; day: string; leads: number }>;
}

/**
 * How the placeholders of a campaign's messages were filled, summed
 * (`ActivityStore.placeholderFillSums`): the personalization report before its rates and order.
 */
export interface PlaceholderFillSums {
  /** The messages counted. */
  messages: number;
  /**
   * One row per placeholder name: the messages whose fills name it (`uses`, each message once,
   * with its first fill of the name), by how they were filled. `source` is that of the name's
   * first fill in the counting order: leads by `enrolled_at` then `id`, each lead's messages
   * in the order of `kinds`, fills in the order of `data.placeholders`.
   */
  fields: Array<{
    name: string;
    source: PlaceholderFill['source'];
    uses: number;
    filled: number;
    fallback: number;
    empty: number;
  }>;
}

/** The facts the sender breakdown credits (`ActivityStore.senderSums`), as rules. */
export interface SenderRules {
  /** Each one's first event credits a send to its account. */
  sends: readonly FactRule[];
  /**
   * Per channel, the first reply and the first positive reply: credited to the reply's account,
   * or when it names none, to the account of the lead's last event of the sends' kinds on that
   * channel at or before it (at any time, also before the window).
   */
  replies: ReadonlyArray<{ channel: 'email' | 'linkedin'; replied: FactRule; positive: FactRule }>;
}

/** One sender account's credits in the sender breakdown (`ActivityStore.senderSums`). */
export interface SenderSum {
  account_id: string;
  /**
   * The channel of its first credit in the counting order (leads by `enrolled_at` then `id`;
   * a lead's sends in order, then its replies): the platform of an account the organization
   * does not know. Null when none of its credits had one.
   */
  channel: 'email' | 'linkedin' | null;
  /** Sends credited, and the leads they went to. */
  sent: number;
  contacted: number;
  /** First replies and first positive replies credited. */
  replied: number;
  positive: number;
}

export interface ActivityStore {
  /**
   * Throws `UniqueViolation` (`activity_events_step_run`) for a second event naming the same
   * step of the same sequence lead: a step runs once per lead, however many engines run. An
   * event that decides a conditional without being a step's run (`decidesPath`) also makes its
   * enrolment's bound not known (`EnrolmentStore.listDue`): a round may have read the lead's
   * events before it and worked out the other branch's time.
   */
  insert(record: ActivityEventRecord): Promise<void>;
  /**
   * A campaign's events, oldest first (`occurred_at`, ties by `id`): with `from`, those at or
   * after it; with `kinds`, those kinds only.
   */
  listForCampaign(
    campaignId: string,
    filter?: { from?: string; kinds?: ActivityKind[] },
  ): Promise<ActivityEventRecord[]>;
  /**
   * A campaign's events of `kinds` as the sequence walks read them (`ActivityEvent`: without
   * the organization, campaign, lead and arm columns), oldest first (`occurred_at`, ties by
   * `id`): what the step funnel reads, every such event of the campaign, so fewer rows and
   * columns than `listForCampaign` would give.
   */
  listProgressEvents(campaignId: string, filter: { kinds: readonly ActivityKind[] }): Promise<ActivityEvent[]>;
  /**
   * How many events of `kinds` each of `accountIds` recorded at or after `from` and before
   * `to`, whatever their campaign (an account absent from the map recorded none): a sender's
   * daily limit is the account's, and an account moves between campaigns.
   */
  countByAccount(
    accountIds: string[],
    filter: { kinds: ActivityKind[]; from: string; to: string },
  ): Promise<Map<string, number>>;
  /** One sequence lead's events, oldest first (`occurred_at`, ties by `id`). */
  listForEnrolment(enrolmentId: string, filter?: { kinds?: ActivityKind[] }): Promise<ActivityEventRecord[]>;
  /** The events of these sequence leads, oldest first (`occurred_at`, ties by `id`). */
  listForEnrolments(enrolmentIds: readonly string[]): Promise<ActivityEventRecord[]>;
  /**
   * Every enrolment of a campaign, removed ones included, with its lead's `deleted_at`:
   * by `enrolled_at`, ties by `id`.
   */
  listEnrolments(campaignId: string): Promise<EnrolmentWithLeadRecord[]>;
  /**
   * The sums the analysis, daily stats and A/B cohorts count from, worked out where the rows
   * are (SQL: one aggregate query) rather than from every event of the campaign. Counted
   * leads: an enrolment counts unless its lead was removed from the campaign while it lived
   * (`removed_at` before the lead's `deleted_at`, or no deletion). Each fact of `facts`, and
   * `meeting` for bookings of either kind, counts a lead on the UTC day of its first matching
   * event (booking) at or after `from`. `domain/analytics` gives the same from the rows
   * (`firstFactDaysOf`). Throws a `TypeError` for the names `checkFactNames` refuses.
   */
  firstFactDays(
    campaignId: string,
    query: { from: string | null; facts: Readonly<Record<string, FactRule>> },
  ): Promise<FirstFactDays>;
  /**
   * The placeholder fills of the messages sent, summed where the rows are (SQL: one aggregate
   * query). The messages: each counted lead's (as `firstFactDays` counts) first event of each of
   * `kinds` at or after `from` (`occurred_at`, ties by `id`); each sums the fills of its
   * `data.placeholders`. `domain/analytics` gives the same from the rows (`placeholderFillSumsOf`).
   */
  placeholderFillSums(
    campaignId: string,
    query: { from: string | null; kinds: readonly ActivityKind[] },
  ): Promise<PlaceholderFillSums>;
  /**
   * The sender breakdown's credits, summed where the rows are (SQL: one aggregate query): each
   * counted lead's (as `firstFactDays` counts) first event of each fact of `rules` at or after
   * `from` (`occurred_at`, ties by `id`), credited as `SenderRules` says; one row per account
   * credited at least once. `domain/analytics` gives the same from the rows (`senderSumsOf`).
   */
  senderSums(campaignId: string, query: { from: string | null } & SenderRules): Promise<SenderSum[]>;
  /** Erases the personal text of a deleted lead's events in place (`data.message` of replies). */
  eraseLead(organizationId: string, leadId: string): Promise<void>;
}

export interface SandboxMessageStore {
  insert(record: SandboxMessageRecord): Promise<void>;
  /**
   * A campaign's recorded messages, oldest `sent_at` first, ties by `id`; with `lead_id`, that
   * lead's. A message's text is its subject and body; with `maxTextBytes` no text past the
   * page's is read.
   */
  listForCampaign(
    campaignId: string,
    filter: { lead_id?: string } & SizedPageRequest,
  ): Promise<Page<SandboxMessageRecord>>;
  /** Erases a deleted lead's rendered messages in place (they carry its name and details). */
  eraseLead(organizationId: string, leadId: string): Promise<void>;
}

/**
 * What `DeliveryStore.claimDue` takes. Two clocks: the schedule's (`now`, `dueAgainAt`: the
 * sandbox clock in sandbox mode) and real time (`realNow`, `leaseUntil`). A lease is counted
 * in real time, so that another server advancing the sandbox clock cannot end it while its
 * attempt is still out.
 */
export interface DeliveryClaim {
  /** Deliveries due at or before this time are claimed. */
  now: string;
  limit: number;
  workerId: string;
  /** Real time now: a claim whose lease ends later is still live, and is not taken over. */
  realNow: string;
  /** When the claim lapses, in real time: if the worker has not completed the attempt by then, it died. */
  leaseUntil: string;
  /** The schedule's time at which a claim never completed is due again (`now` plus the lease's length). */
  dueAgainAt: string;
}

/** One claimed attempt, completed: what `DeliveryStore.completeAttempts` writes. */
export interface DeliveryCompletion {
  delivery_id: string;
  worker_id: string;
  /** The attempt's number: the claimed record's `attempts_made`. */
  attempt: number;
  /** One per webhook contacted; none when the attempt was not made. */
  attempts: DeliveryAttemptRecord[];
  /** What the delivery becomes; `at` is the delivery or failure time, or the next attempt's. */
  outcome: { status: 'delivered' | 'failed' | 'pending'; at: string };
  /** `attempts_made` from now on: `attempt`, or `attempt - 1` when the attempt was not made. */
  attempts_made: number;
  last_error: string | null;
}

/** What `DeliveryStore.readClaims` answers: enough of a delivery to tell whether a claim still holds. */
export type DeliveryClaimState = Pick<DeliveryRecord, 'id' | 'status' | 'lease_owner' | 'attempts_made'>;

export type DeliveryWithAttempts = DeliveryRecord & { attempts: DeliveryAttemptRecord[] };

/**
 * The `prospect_response` outbox. Several workers, in several processes on one PostgreSQL,
 * drain it without ever making the same attempt twice: a claim takes a delivery and its next
 * attempt number under a lease, and only the lease holder moves the delivery on.
 */
export interface DeliveryStore {
  /** Adds a pending delivery; call it in the reply's transaction so neither exists alone. */
  enqueue(record: DeliveryRecord): Promise<void>;
  /**
   * Takes up to `limit` pending deliveries due at `now` (earliest first), each with its next
   * attempt: `attempts_made` is incremented, the lease set to `leaseUntil`, and
   * `next_attempt_at` moved to `dueAgainAt`, when the delivery is due again if the worker
   * never completes it. Deliveries claimed by another worker whose lease has not run out at
   * `realNow` are not returned, whatever `now` is.
   */
  claimDue(claim: DeliveryClaim): Promise<DeliveryRecord[]>;
  /**
   * Records the attempt rows and moves each delivery, atomically per delivery. The delivery
   * moves only while the caller still holds the claim (same worker, same attempt, still
   * pending), except that a success always marks a pending delivery delivered. The attempt
   * rows are kept either way: the requests were sent. Returns the IDs of deliveries moved.
   */
  completeAttempts(completions: DeliveryCompletion[]): Promise<string[]>;
  get(id: string): Promise<DeliveryRecord | null>;
  /**
   * Who holds each of these deliveries now (status, lease owner, attempt number), in one read:
   * the worker's last check before sending. Deliveries not found are left out.
   */
  readClaims(ids: readonly string[]): Promise<DeliveryClaimState[]>;
  /** A delivery's attempts: by attempt, then `started_at`, then webhook ID. */
  listAttempts(deliveryId: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * A campaign's deliveries with their attempts, oldest first (`created_at`, ties by `id`), as
   * the operator reads them. A delivery's text is its body; with `maxTextBytes` no body past
   * the page's is read.
   */
  listForCampaign(campaignId: string, page: SizedPageRequest): Promise<Page<DeliveryWithAttempts>>;
  /**
   * The earliest `next_attempt_at` of pending deliveries, or null when none is pending (a
   * claim's is when it is due again). With `liveClaimsAt` (a real time), deliveries whose
   * claim is still live then are left out: their attempt is under way elsewhere.
   */
  nextDueAt(options?: { liveClaimsAt?: string }): Promise<string | null>;
  /**
   * Erasure of a deleted lead: every delivery of the lead gets the body `anonymise` makes of
   * its body (the event with the lead's data left out), and every delivery not yet made
   * (`pending`, claimed or not) becomes `cancelled` at `at`, with no `next_attempt_at` and no
   * lease: never claimed again, and a worker holding it does not send it (it checks first).
   * Attempt rows are kept: they hold the webhook's URL and the transport's error, never the
   * lead's data.
   */
  eraseLead(
    organizationId: string,
    leadId: string,
    erasure: { at: string; anonymise: (body: string) => string },
  ): Promise<void>;
}

/**
 * Sandbox mode's state shared through the store: how far the sandbox clock runs ahead of real
 * time, so that a restarted server, and every server on one database, keep the same time.
 */
export interface SandboxStateStore {
  /** The saved offset in milliseconds (0 when never advanced). */
  clockOffset(): Promise<number>;
  /** Saves `offsetMs` unless a larger one is saved already (the clock only moves forward). */
  saveClockOffset(offsetMs: number): Promise<void>;
}

export interface BookingStore {
  insert(record: BookingRecord): Promise<void>;
  get(campaignId: string, id: string): Promise<BookingRecord | null>;
  update(
    campaignId: string,
    id: string,
    patch: Partial<Pick<BookingRecord, 'start_time' | 'status' | 'canceled_at' | 'rescheduled'>>,
  ): Promise<BookingRecord | null>;
  /**
   * A campaign's bookings, newest first (`booked_at`, ties by `id`): with `since`, those
   * booked at or after it; with `limitPerKind`, at most that many of each kind (the newest).
   */
  listForCampaign(campaignId: string, filter?: { since?: string; limitPerKind?: number }): Promise<BookingRecord[]>;
  /** Erases the invitee's name and email of a deleted lead's bookings in place. */
  eraseLead(organizationId: string, leadId: string): Promise<void>;
}

export interface PipelineStore {
  insert(record: PipelineRecord): Promise<void>;
  insertStage(record: StageRecord): Promise<void>;
  get(organizationId: string, id: string): Promise<PipelineRecord | null>;
  /** Active pipelines, oldest first, ties by `id`. */
  listActive(organizationId: string, page: PageRequest): Promise<Page<PipelineRecord>>;
  /**
   * Every pipeline of the organization, oldest first, ties by `id`. With `forUpdate`, the
   * rows are locked until the surrounding transaction ends (serializes default changes).
   */
  listAll(organizationId: string, options?: { forUpdate?: boolean }): Promise<PipelineRecord[]>;
  /** The organization's default pipeline (active or not), or null. */
  getDefault(organizationId: string): Promise<PipelineRecord | null>;
  /** Throws `UniqueViolation` (`pipelines_one_default`) for a second default pipeline; `insert` too. */
  update(
    organizationId: string,
    id: string,
    patch: Partial<Pick<PipelineRecord, 'name' | 'is_active' | 'is_default' | 'updated_at'>>,
  ): Promise<PipelineRecord | null>;
  /** Stages of a pipeline by `position`. */
  listStages(pipelineId: string): Promise<StageRecord[]>;
  getStage(organizationId: string, stageId: string): Promise<StageRecord | null>;
}

export interface DealStore {
  insert(record: DealRecord): Promise<void>;
  /** With `forUpdate`, the row is locked until the surrounding transaction ends. */
  get(organizationId: string, id: string, options?: { forUpdate?: boolean }): Promise<DealRecord | null>;
  /** Newest first, ties by `id`. */
  list(
    organizationId: string,
    filter: { stage_id?: string; owner_id?: string; lead_id?: string } & PageRequest,
  ): Promise<Page<DealRecord>>;
  update(
    organizationId: string,
    id: string,
    patch: Partial<Omit<DealRecord, 'id' | 'organization_id' | 'created_at'>>,
  ): Promise<DealRecord | null>;
  /**
   * Erasure of a deleted lead: each deal of the lead gets the text fields `anonymise` makes
   * of it (its summary: name, notes, custom fields, metadata, with the lead's values taken
   * out). The deal stays, with its value, stage and `lead_id` (the anonymised row's ID).
   */
  eraseLead(
    organizationId: string,
    leadId: string,
    anonymise: (deal: DealRecord) => Pick<DealRecord, 'name' | 'notes' | 'custom_fields' | 'metadata'>,
  ): Promise<void>;
}

export type IdempotencyClaim = { outcome: 'claimed' } | { outcome: 'existing'; record: IdempotencyRecord };

/**
 * The claim a request holds on a key: its `locked_until` tells it from any later claim of the
 * same key (a takeover needs the lease to have run out, so its lease ends later).
 */
export type HeldClaim = Pick<IdempotencyRecord, 'organization_id' | 'key' | 'locked_until'>;

export interface IdempotencyStore {
  /**
   * Claims `(organization_id, key)` for a new request, or returns the record already there.
   * Expired records are replaced, and an in-progress claim whose lease ran out (its request
   * died) is taken over, so a crash never blocks a key for good.
   */
  claim(record: IdempotencyRecord, now: string): Promise<IdempotencyClaim>;
  /**
   * Stores the answer of the request holding `claim`, and answers true; false when the claim
   * is no longer its own (its lease ran out and another request took the key over, or it was
   * completed or released already), storing nothing. Called in the request's transaction, so
   * the answer commits with the writes it describes.
   */
  complete(claim: HeldClaim, status: number, body: string): Promise<boolean>;
  /**
   * Forgets `claim` if it is still in progress, so that a retry runs again: a key another
   * request took over, or one whose answer was stored (committed after all), stays as it is.
   */
  release(claim: HeldClaim): Promise<void>;
  /**
   * Erasure of a deleted lead: every stored answer of the organization that names the lead's
   * ID is replaced with what `anonymise` makes of it (the lead's data left out), so that a
   * replay never returns it, and its fingerprint becomes `erasedFingerprint(...)`. The key stays
   * claimed: a retry still replays, and never runs the request again. A refusal, or a batch
   * answer with a refused item (`"success":false`), of an operation in `refusedOperations`
   * (operation digests) names no lead, but its request may have held this lead's data: unless
   * expired, its fingerprint becomes `erasedFingerprint(...)` too.
   */
  eraseLead(
    organizationId: string,
    leadId: string,
    anonymise: (body: string) => string,
    refusedOperations: readonly string[],
  ): Promise<void>;
  /**
   * Deletes the records whose time ran out (`expires_at` at or before `now`), and returns how
   * many: no replay returns them, a new claim of their key replaces them, and their answers
   * hold what the requests answered (leads' data among it) for no one.
   */
  purgeExpired(now: string): Promise<number>;
}

export interface RateLimitStore {
  /**
   * Counts one request in each bucket for the window starting at `windowStart` (windows of
   * `windowMs`), and returns each bucket's count after it, in the order given. A counter's
   * window only moves forward: a hit of the window before the counter's (one that ran late,
   * at a boundary, in this process or another) counts in the counter's window, rather than
   * taking the counter back and forgetting the later window's hits. A hit further back is a
   * clock that stepped back (an NTP step, a test's clock): the counter starts again at it, or
   * it would stay spent until the clock caught up (store/rate-limit-window.ts).
   */
  hit(apiKeyId: string, buckets: string[], windowStart: string, windowMs: number): Promise<number[]>;
}

/** Where a store says what it did in the background (`reclaimErased`): the route's logger. */
export type ReclaimLog = (entry: { level: 'info' | 'warn'; message: string; [field: string]: unknown }) => void;

export interface Store {
  readonly kind: 'memory' | 'pglite' | 'postgres';
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  accounts: SenderAccountStore;
  campaigns: CampaignStore;
  aiFields: AiFieldStore;
  responders: ResponderStore;
  webhooks: WebhookStore;
  leads: LeadStore;
  enrolments: EnrolmentStore;
  pipelines: PipelineStore;
  deals: DealStore;
  idempotency: IdempotencyStore;
  rateLimits: RateLimitStore;
  activity: ActivityStore;
  bookings: BookingStore;
  messages: SandboxMessageStore;
  sandbox: SandboxStateStore;
  deliveries: DeliveryStore;
  /**
   * After an erasure has committed: removes the dead row versions it left in the tables that
   * hold lead data (SQL: `VACUUM`; see docs/decisions/0003-erasure.md for what it does and
   * does not reach). When a transaction older than the erasure keeps them, vacuums again
   * once none is left, in the background, saying so through `log`. Outside any transaction;
   * nothing to do in memory.
   */
  reclaimErased(log?: ReclaimLog): Promise<void>;
  /**
   * Gathers the query planner's statistics of the tables whose statistics are missing or
   * stale (SQL: `ANALYZE`, see store/sql/planner-statistics.ts); the tables analyzed.
   * Outside any transaction; nothing to do in memory.
   */
  refreshStatistics(): Promise<string[]>;
  /**
   * Removes dead row versions where PostgreSQL's autovacuum does not (SQL: `VACUUM` of the
   * tables autovacuum would vacuum, on PGlite always and on PostgreSQL where it is off; see
   * store/sql/vacuum-where-needed.ts), analyzing in the vacuum those that changed enough
   * since their statistics, except `analyzedJustNow`; the tables vacuumed. Outside any
   * transaction; nothing to do in memory.
   */
  vacuumWhereNeeded(analyzedJustNow?: readonly string[]): Promise<string[]>;
  /**
   * Runs `work` atomically: every write inside commits together or not at all. A nested call
   * joins the outer transaction as a savepoint: when it throws, its own writes are undone and
   * the outer transaction stays usable (a caller may catch `UniqueViolation` and try again
   * inside it); when it returns, its writes commit with the outer one. With `snapshot`, see
   * `TransactionOptions`.
   */
  transaction<T>(work: (tx: Store) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
