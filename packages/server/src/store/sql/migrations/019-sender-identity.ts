/**
 * The connect page's lookup of a sender the organization has (`SenderAccountStore.findSender`):
 * by who the account sends as, in any case, rather than a walk through the organization's
 * accounts of that platform. Not unique: accounts added before the page refused a sender it
 * had (or two added at the same moment, before it locked the sender) may share one, and such a
 * database must still migrate.
 */
export const migration019 = {
  version: 19,
  name: 'sender-identity',
  sql: /* sql */ `
create index sender_accounts_identity on sender_accounts
  (organization_id, platform, lower(case when platform = 'email' then email else platform_username end));
`,
};
