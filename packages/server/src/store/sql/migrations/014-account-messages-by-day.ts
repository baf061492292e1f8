/**
 * An account's messages of one day, across its campaigns (decision 0002, "A sender's daily
 * limit is the account's"): the engine counts them before every round to know whether any
 * sender can still send. The campaign index (`activity_events_campaign`) cannot serve it: an
 * account moves between campaigns, and the count must include what it sent for the others.
 * Events that name no account (a prospect's opens, acceptances and replies) are left out.
 */
export const migration014 = {
  version: 14,
  name: 'account-messages-by-day',
  sql: /* sql */ `
create index activity_events_account on activity_events (account_id, occurred_at) where account_id is not null;
`,
};
