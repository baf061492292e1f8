/** The resource tables of the API (issue 4). */
export const migration001 = {
  version: 1,
  name: 'initial',
  sql: /* sql */ `
create table organizations (
  id uuid primary key,
  name text not null,
  is_active boolean not null default true,
  subscription_active boolean not null default true,
  created_at timestamptz not null
);

create table users (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  email text not null,
  name text not null,
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null
);
create index users_organization on users (organization_id, created_at, id);

create table api_keys (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  name text not null,
  prefix text not null,
  key_hash text not null unique,
  scopes jsonb not null,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null
);
create index api_keys_organization on api_keys (organization_id, created_at, id);

create table sender_accounts (
  id text primary key,
  organization_id uuid not null references organizations (id),
  platform text not null check (platform in ('email', 'linkedin')),
  label text not null,
  status text not null check (status in ('connected', 'disconnected')),
  email text,
  platform_username text,
  daily_limit integer not null,
  email_auth jsonb,
  connected_at timestamptz,
  created_at timestamptz not null
);
create index sender_accounts_organization on sender_accounts (organization_id);

create table campaigns (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  owner_id uuid not null references users (id),
  name text not null,
  description text,
  is_active boolean not null,
  ab_testing_enabled boolean not null,
  traffic_split integer not null check (traffic_split between 0 and 100),
  ab_winner text check (ab_winner in ('a', 'b')),
  custom_fields jsonb,
  enabled_accounts jsonb not null,
  lead_database_filters jsonb,
  refill_policy jsonb,
  responder_enabled boolean not null,
  sequence jsonb not null,
  sequence_version integer not null,
  activated_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index campaigns_newest on campaigns (organization_id, created_at desc, id desc);

create table ai_fields (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  field_name text not null,
  ai_instructions text not null,
  data_sources jsonb,
  fallback_value text,
  field_description text,
  is_active boolean not null,
  extra jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index ai_fields_campaign on ai_fields (campaign_id, created_at, id);

create table responder_settings (
  campaign_id uuid primary key references campaigns (id),
  organization_id uuid not null references organizations (id),
  mode text not null check (mode in ('autopilot', 'copilot')),
  goal text,
  booking_url text,
  instructions text,
  escalate_negative boolean not null,
  handle_out_of_office boolean not null,
  updated_at timestamptz
);

create table webhooks (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  url text not null,
  enabled boolean not null,
  secret text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (campaign_id, url)
);
-- One response webhook slot per campaign: at most one enabled webhook, even under races.
create unique index webhooks_one_enabled on webhooks (campaign_id) where enabled;

create table leads (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  email text,
  first_name text,
  last_name text,
  company text,
  title text,
  industry text,
  website text,
  linkedin_profile text,
  annual_revenue bigint,
  employee_count integer,
  custom_fields jsonb not null,
  deleted_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index leads_newest on leads (organization_id, created_at desc, id desc) where deleted_at is null;
-- A live lead's email is unique in its organization, case-insensitively.
create unique index leads_email on leads (organization_id, lower(email)) where deleted_at is null and email is not null;

create table enrolments (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  lead_id uuid not null references leads (id),
  status text not null check (status in ('not_contacted', 'active', 'paused', 'completed')),
  variation text check (variation in ('a', 'b')),
  enrolled_at timestamptz not null,
  removed_at timestamptz
);
create unique index enrolments_live on enrolments (campaign_id, lead_id) where removed_at is null;
create index enrolments_lead on enrolments (lead_id, enrolled_at, id);

create table pipelines (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  name text not null,
  is_active boolean not null,
  is_default boolean not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index pipelines_oldest on pipelines (organization_id, created_at, id);

create table stages (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  pipeline_id uuid not null references pipelines (id),
  name text not null,
  position integer not null,
  probability integer check (probability between 0 and 100),
  outcome text not null check (outcome in ('open', 'won', 'lost'))
);
create index stages_pipeline on stages (pipeline_id, position, id);

create table deals (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  name text not null,
  lead_id uuid references leads (id),
  pipeline_id uuid references pipelines (id),
  stage_id uuid references stages (id),
  owner_id uuid references users (id),
  value numeric,
  probability integer check (probability between 0 and 100),
  expected_close_date timestamptz,
  actual_close_date timestamptz,
  notes text,
  custom_fields jsonb,
  metadata jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index deals_newest on deals (organization_id, created_at desc, id desc);

create table idempotency_keys (
  organization_id uuid not null references organizations (id),
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('in_progress', 'completed')),
  locked_until timestamptz not null,
  response_status integer,
  response_body text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (organization_id, key)
);

-- Fixed one-minute windows per API key and bucket; one row per bucket, reset in place.
create table rate_limit_counters (
  api_key_id uuid not null,
  bucket text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (api_key_id, bucket)
);
`,
};
