/**
 * Stored idempotent answers are compressed with LZ4 where PostgreSQL has it (decision 0017).
 * An import's answer is about 2.5 MB of JSON for 5,000 leads; PostgreSQL's default (pglz)
 * took 75 to 120 ms of the database's CPU to compress it on this project's machine, LZ4 15
 * to 26 ms, for about the same stored size (260 KB against 270 KB). Rows stored before keep
 * pglz (each value records its method). PGlite is built without LZ4: there the column keeps
 * pglz, which the block checks rather than fail.
 */
export const migration012 = {
  version: 12,
  name: 'lz4-stored-answers',
  sql: /* sql */ `
do $$
begin
  if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any (enumvals)) then
    alter table idempotency_keys alter column response_body set compression lz4;
  end if;
end
$$;
`,
};
