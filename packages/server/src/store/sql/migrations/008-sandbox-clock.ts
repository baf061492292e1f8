/**
 * Sandbox mode: the sandbox clock's offset, kept in the database so that a restarted server
 * and every server on one database keep the time the sandbox clock was advanced to.
 */
export const migration008 = {
  version: 8,
  name: 'sandbox-clock',
  sql: /* sql */ `
create table sandbox_clock (
  id boolean primary key default true check (id),
  offset_ms bigint not null check (offset_ms >= 0)
);
`,
};
