/**
 * The `prospect_response` outbox (section 6): a delivery is written in the reply's
 * transaction and drained by delivery workers, several processes at once on one PostgreSQL.
 */
export const migration006 = {
  version: 6,
  name: 'deliveries',
  sql: /* sql */ `
create table deliveries (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  enrolment_id uuid not null references enrolments (id),
  lead_id uuid not null references leads (id),
  channel text not null check (channel in ('email', 'linkedin')),
  idempotency_key text not null,
  -- The exact bytes sent (UTF-8 JSON): text, not jsonb, which would not keep them.
  body text not null,
  status text not null check (status in ('pending', 'delivered', 'failed')),
  attempts_made integer not null default 0,
  created_at timestamptz not null,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  lease_owner text,
  lease_until timestamptz,
  -- Due exactly while pending.
  check ((status = 'pending') = (next_attempt_at is not null))
);
-- The claim query: pending deliveries by due time. Partial, so that the delivered history
-- never weighs on it.
create index deliveries_due on deliveries (next_attempt_at, id) where status = 'pending';
-- The operator's list of a campaign's deliveries, newest first.
create index deliveries_campaign on deliveries (campaign_id, created_at desc, id desc);

create table delivery_attempts (
  delivery_id uuid not null references deliveries (id) on delete cascade,
  attempt integer not null check (attempt >= 1),
  -- No foreign key: an attempt stays the record of what was sent where.
  webhook_id uuid not null,
  url text not null,
  started_at timestamptz not null,
  ok boolean not null,
  status integer,
  duration_ms integer not null,
  error text,
  -- One request per webhook per attempt, whatever the number of workers.
  primary key (delivery_id, attempt, webhook_id)
);
`,
};
