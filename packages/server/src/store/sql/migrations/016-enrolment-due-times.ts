/**
 * The engine's schedule (decision 0002, "Due times"): per enrolment, a lower bound of when its
 * next step comes due, so that a round reads the leads due now rather than its whole campaign.
 * `due_at` null: nothing pending (paused, completed, removed) until a write says otherwise;
 * the Unix epoch: not known, read at the next round (every existing row, and a new one). Not
 * `-infinity`, which no JavaScript `Date` holds: a row read whole (`returning *`) carries it. `due_mark`
 * changes with every write of `due_at`: the engine writes what it worked out only where the
 * mark is still the one it read, so that a sequence edit made meanwhile is never overwritten.
 */
export const migration016 = {
  version: 16,
  name: 'enrolment-due-times',
  sql: /* sql */ `
alter table enrolments add column due_at timestamptz default 'epoch';
alter table enrolments add column due_mark integer not null default 0;
create index enrolments_due on enrolments (campaign_id, due_at) where due_at is not null;
`,
};
