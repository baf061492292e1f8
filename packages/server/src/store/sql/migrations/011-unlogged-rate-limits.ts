/**
 * Rate-limit counters are ephemeral (one-minute windows): the table becomes UNLOGGED, so a
 * counter's commit writes no WAL and waits for no fsync (decision 0007). On PostgreSQL that
 * took the counter's round trip from about 3-4 ms to 0.2 ms, and every request waited for
 * it. After a crash PostgreSQL empties an unlogged table: the current windows start again
 * from zero, which a rate limit can afford. Replicas do not carry it; only the primary counts.
 */
export const migration011 = {
  version: 11,
  name: 'unlogged-rate-limits',
  sql: /* sql */ `
alter table rate_limit_counters set unlogged;
`,
};
