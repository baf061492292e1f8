/** One-time links where a user connects or reconnects a sender account (`POST /accounts/connect-link`). */
export const migration004 = {
  version: 4,
  name: 'connect-links',
  sql: /* sql */ `
create table connect_links (
  token text primary key,
  organization_id uuid not null references organizations (id),
  platform text not null check (platform in ('email', 'linkedin')),
  -- The account to reconnect; null adds a new account.
  account_id text references sender_accounts (id),
  redirect_url text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null
);
create index connect_links_organization on connect_links (organization_id, created_at);
`,
};
