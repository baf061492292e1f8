/**
 * What the store persists, one record type per table. Field names follow the database
 * columns and the API (snake_case), so records map to API shapes with little code.
 * Timestamps are ISO 8601 strings in UTC.
 */
import type { Schemas } from '../openapi/types.ts';

export type Sequence = Schemas['Sequence'];
/** `<family>:<level>`; see `allScopes` in domain/api-keys.ts. */
export type Scope =
  | 'leads:read'
  | 'leads:write'
  | 'campaigns:read'
  | 'campaigns:write'
  | 'crm:read'
  | 'crm:write'
  | 'accounts:read'
  | 'accounts:write';
export type SequenceStep = Schemas['SequenceStep'];

export interface OrganizationRecord {
  id: string;
  name: string;
  is_active: boolean;
  subscription_active: boolean;
  created_at: string;
}

export interface UserRecord {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'member';
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  organization_id: string;
  name: string;
  /** The first characters of the key (`ocs_7Kq2`), shown to identify it. */
  prefix: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface SenderAccountRecord {
  id: string;
  organization_id: string;
  platform: 'email' | 'linkedin';
  label: string;
  status: 'connected' | 'disconnected';
  email: string | null;
  platform_username: string | null;
  daily_limit: number;
  email_auth: { spf: boolean; dkim: boolean; dmarc: boolean } | null;
  connected_at: string | null;
  created_at: string;
}

/** A one-time link where a user connects (or, with `account_id`, reconnects) a sender account. */
export interface ConnectLinkRecord {
  /** The secret part of the link's URL; unique. */
  token: string;
  organization_id: string;
  platform: 'email' | 'linkedin';
  /**
   * The account to reconnect; null to add a new one. Once a link that adds one is used, the
   * account it added (`recordConnectLinkAccount`).
   */
  account_id: string | null;
  redirect_url: string | null;
  expires_at: string;
  /** Set when the link was used; a link is used once. */
  used_at: string | null;
  created_at: string;
}

export interface CampaignRecord {
  id: string;
  organization_id: string;
  owner_id: string;
  name: string;
  description: string | null;
  is_active: boolean;
  ab_testing_enabled: boolean;
  traffic_split: number;
  ab_winner: 'a' | 'b' | null;
  custom_fields: unknown;
  /** IDs of the assigned sender accounts, in the order they were given. */
  enabled_accounts: string[];
  lead_database_filters: Record<string, unknown> | null;
  refill_policy: Record<string, unknown> | null;
  responder_enabled: boolean;
  /** The sequence, or `[]` when the campaign has none yet. */
  sequence: Sequence | [];
  /** Incremented by every sequence write; conditional writes compare it. */
  sequence_version: number;
  activated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AiFieldRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  field_name: string;
  ai_instructions: string;
  data_sources: string[] | null;
  fallback_value: string | null;
  field_description: string | null;
  is_active: boolean;
  /** Additional properties the caller sent (AI fields allow them). */
  extra: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface ResponderSettingsRecord {
  campaign_id: string;
  organization_id: string;
  mode: 'autopilot' | 'copilot';
  goal: string | null;
  booking_url: string | null;
  instructions: string | null;
  escalate_negative: boolean;
  handle_out_of_office: boolean;
  updated_at: string | null;
}

export interface WebhookRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  url: string;
  enabled: boolean;
  secret: string | null;
  created_at: string;
  updated_at: string;
}

export interface LeadRecord {
  id: string;
  organization_id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  title: string | null;
  industry: string | null;
  website: string | null;
  linkedin_profile: string | null;
  annual_revenue: number | null;
  employee_count: number | null;
  custom_fields: Record<string, unknown>;
  /** Set when the lead was deleted: personal fields are then erased in place. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export type EnrolmentStatus = 'not_contacted' | 'active' | 'paused' | 'completed';

/** A lead's enrolment in a campaign: the "sequence lead". */
export interface EnrolmentRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  lead_id: string;
  status: EnrolmentStatus;
  variation: 'a' | 'b' | null;
  enrolled_at: string;
  /** Set when the lead was removed from the campaign; the row stays for past activity. */
  removed_at: string | null;
}

/** An enrolment with its lead's deletion time: what analytics count (deleted leads included). */
export interface EnrolmentWithLeadRecord extends EnrolmentRecord {
  lead_deleted_at: string | null;
}

/**
 * What happened to a sequence lead, one row per event. The engine writes them; every
 * analytics operation counts from them. Kinds and the `data` each carries:
 * - `email_sent`, `linkedin_message_sent`, `connection_requested`: a step sent a message
 *   (`StepRunData` with `placeholders`); `profile_viewed`: a `view_profile` step ran
 *   (`StepRunData`); `already_connected`: a `linkedin_connection` step found the lead already
 *   connected to the sender, so no request was sent (`StepRunData`).
 * - `email_opened`, `connection_accepted`: engagement, `data` empty.
 * - `reply_received`: `ReplyData`.
 */
export type ActivityKind =
  | 'email_sent'
  | 'email_opened'
  | 'profile_viewed'
  | 'connection_requested'
  | 'already_connected'
  | 'connection_accepted'
  | 'linkedin_message_sent'
  | 'reply_received';

/**
 * How one placeholder of a sent message was filled (one entry per distinct placeholder of
 * the step's subject, content and message): `filled` with the lead's value or a generated AI
 * value, `fallback` with the AI field's `fallback_value`, `empty` when it had no value.
 * `source` is `lead` for lead fields and custom fields, `ai` for AI fields.
 */
export interface PlaceholderFill {
  name: string;
  source: 'lead' | 'ai';
  fill: 'filled' | 'fallback' | 'empty';
}

/**
 * `data` of an event written when a step ran (`step_id` set). `position` is where the step
 * sat in the lead's steps when it ran: indexes joined with the branch taken (`3.yes.0` for
 * the first step of the `yes` branch of the fourth step); `next_step_id` is the ID of the
 * step that followed it then (the next sibling, or what follows the enclosing conditional),
 * null when it was the last. Both let a lead continue at the right place after the
 * sequence is replaced or an arm promoted (domain/sequence-progress.ts).
 */
export interface StepRunData {
  position?: string;
  next_step_id?: number | null;
  /** Messages only (`email_sent`, `connection_requested`, `linkedin_message_sent`). */
  placeholders?: PlaceholderFill[];
}

/** `data` of `reply_received`: the classification (null fields when not analysed). */
export interface ReplyData {
  sentiment?: 'positive' | 'neutral' | 'negative' | null;
  out_of_office?: boolean | null;
  /** The prospect's message; erased when the lead is deleted. */
  message?: string | null;
  /** Where the reply agent left the conversation (its next reply decision reads it). */
  conversation_status?: string | null;
  goal_status?: string | null;
  /** The `prospect_response` delivery the reply got; null when it got none (section 6 rule 4). */
  delivery_id?: string | null;
}

export interface ActivityEventRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  /** The sequence lead (enrolment) it happened to. */
  enrolment_id: string;
  lead_id: string;
  /** The lead's arm when it happened (null before the first step). */
  variation: 'a' | 'b' | null;
  /** The step that ran, for step events; null otherwise. */
  step_id: number | null;
  /** The sender account that sent it, or on which the engagement or reply arrived. */
  account_id: string | null;
  channel: 'email' | 'linkedin' | null;
  kind: ActivityKind;
  occurred_at: string;
  data: StepRunData & ReplyData;
}

/** The step types that send the lead a message. */
export type MessageStepType = Exclude<SequenceStep['type'], 'view_profile' | 'conditional'>;

/**
 * A message the sandbox channel recorded instead of sending it (sandbox mode): the step's
 * text rendered for the lead, as a real channel would have sent it.
 */
export interface SandboxMessageRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  enrolment_id: string;
  lead_id: string;
  step_id: number;
  step_type: MessageStepType;
  channel: 'email' | 'linkedin';
  variation: 'a' | 'b' | null;
  account_id: string | null;
  subject: string | null;
  body: string;
  sent_at: string;
}

/** A meeting booked from a campaign: a calendar event (`meeting`) or a confirmation. */
export interface BookingRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  enrolment_id: string;
  lead_id: string;
  kind: 'meeting' | 'confirmation';
  /** When the invitee booked, or the confirmation time. */
  booked_at: string;
  /** Meetings only: the calendar event's start, status (`active`, `canceled`) and invitee. */
  start_time: string | null;
  status: string | null;
  invitee_name: string | null;
  invitee_email: string | null;
  canceled_at: string | null;
  rescheduled: boolean | null;
  /** Confirmations only. */
  confirmed_by: 'agent' | 'person' | null;
}

export interface PipelineRecord {
  id: string;
  organization_id: string;
  name: string;
  is_active: boolean;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export interface StageRecord {
  id: string;
  organization_id: string;
  pipeline_id: string;
  name: string;
  position: number;
  probability: number | null;
  outcome: 'open' | 'won' | 'lost';
}

export interface DealRecord {
  id: string;
  organization_id: string;
  name: string;
  lead_id: string | null;
  pipeline_id: string | null;
  stage_id: string | null;
  owner_id: string | null;
  value: number | null;
  probability: number | null;
  expected_close_date: string | null;
  actual_close_date: string | null;
  notes: string | null;
  custom_fields: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyRecord {
  organization_id: string;
  key: string;
  /** Hash of the method, route and body of the first request. */
  fingerprint: string;
  state: 'in_progress' | 'completed';
  /** While in progress: when another request may take the key over (the first died). */
  locked_until: string;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/**
 * A `prospect_response` event in the outbox (section 6): written in the same transaction as
 * the reply, drained by the delivery worker (`delivery/worker.ts`). `body` holds the exact
 * bytes sent (UTF-8 JSON); every attempt sends these same bytes.
 */
export interface DeliveryRecord {
  id: string;
  organization_id: string;
  campaign_id: string;
  /** The sequence lead the reply came from. */
  enrolment_id: string;
  lead_id: string;
  channel: 'email' | 'linkedin';
  /** The event's `idempotency_key`, the same on every attempt. */
  idempotency_key: string;
  body: string;
  status: DeliveryStatus;
  /**
   * Attempts made or under way. A worker takes the next attempt's number when it claims the
   * delivery, so an attempt cut short by a crash still counts and is never made twice.
   */
  attempts_made: number;
  created_at: string;
  /**
   * When the delivery is due: its first attempt or next retry, or, while a worker holds it,
   * when that worker's lease runs out (it is then due again: the worker died). Null once done.
   */
  next_attempt_at: string | null;
  delivered_at: string | null;
  failed_at: string | null;
  /**
   * Set when the delivery was cancelled: its lead was deleted before it was made (issue 10).
   * A cancelled delivery is never claimed or sent again; its body holds the erased event.
   */
  cancelled_at: string | null;
  /** Why the last attempt failed, or why the delivery was given up; null when none failed. */
  last_error: string | null;
  /** The worker attempting it now, and until when; both null when no worker holds it. */
  lease_owner: string | null;
  lease_until: string | null;
}

/** `cancelled`: the lead was deleted before the delivery was made (see `DeliveryStore.eraseLead`). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One attempt of a delivery at one webhook: an attempt contacts every enabled webhook. */
export interface DeliveryAttemptRecord {
  delivery_id: string;
  /** 1 for the first attempt. */
  attempt: number;
  webhook_id: string;
  /** The URL contacted (a webhook's URL may change later). */
  url: string;
  started_at: string;
  ok: boolean;
  /** The status answered, or null when none was. */
  status: number | null;
  duration_ms: number;
  error: string | null;
}
