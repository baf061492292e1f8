/**
 * A delivery claim's lease runs on real time from this version on (decision 0002). Under a
 * sandbox clock an earlier version wrote the lease's end as a sandbox time, days ahead of
 * real time after an advance: read as real time, it would hold a delivery whose worker died
 * for as long. No real-time lease ends more than the worker's lease (75 s + 60 s) from now,
 * so one that does is such a sandbox time, and it ends now: the delivery is claimed again.
 */
export const migration018 = {
  version: 18,
  name: 'real-time-leases',
  sql: /* sql */ `
update deliveries set lease_until = now()
 where status = 'pending' and lease_until > now() + interval '135 seconds';
`,
};
