/**
 * Errors the store reports in its own terms, the same on every backend, so that the rules
 * above it never look at a driver's error codes.
 */

/**
 * A write would break a uniqueness guarantee of the store: `constraint` names it (the SQL
 * index name; memory uses the same names). Inside a transaction the whole transaction has
 * failed: catch it outside `store.transaction(...)`, then read again. That call may itself be
 * nested in an outer transaction (a keyed request's): it is then a savepoint, rolled back
 * alone, and the outer transaction goes on.
 */
export class UniqueViolation extends Error {
  readonly constraint: string;

  constructor(constraint: string, options?: { cause?: unknown }) {
    super(`unique constraint ${constraint} violated`, options);
    this.name = 'UniqueViolation';
    this.constraint = constraint;
  }
}

/** The uniqueness guarantees callers handle, by name. */
export const uniqueConstraints = {
  /** A live lead's email, per organization, compared case-insensitively. */
  leadEmail: 'leads_email',
  /** One live enrolment of a lead in a campaign. */
  liveEnrolment: 'enrolments_live',
  /** One enabled webhook per campaign: the campaign's response webhook slot. */
  webhookSlot: 'webhooks_one_enabled',
  /** A URL appears once among a campaign's webhooks, enabled or not. */
  webhookUrl: 'webhooks_campaign_id_url_key',
  /** A step runs once per sequence lead: one event names a given step of a given lead. */
  stepRun: 'activity_events_step_run',
  /** At most one default pipeline per organization. */
  defaultPipeline: 'pipelines_one_default',
} as const;
