/**
 * Erasure reaches the outbox (issue 10): a delivery not yet made when its lead is deleted is
 * `cancelled` (never sent, never claimed again), and says when.
 */
export const migration009 = {
  version: 9,
  name: 'erasure',
  sql: /* sql */ `
alter table deliveries drop constraint deliveries_status_check;
alter table deliveries add constraint deliveries_status_check
  check (status in ('pending', 'delivered', 'failed', 'cancelled'));
alter table deliveries add column cancelled_at timestamptz;
`,
};
