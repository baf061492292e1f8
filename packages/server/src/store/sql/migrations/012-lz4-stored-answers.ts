/**
 * Stored idempotent answers are compressed with LZ4 where PostgreSQL has it (decision 0017).
 * An import's answer is about 2.5 MB of JSON for 5,000 leads: the update that stores it took
 * 74 to 83 ms with PostgreSQL's default compression (pglz) on this project's machine, and 16
 * to 24 ms with LZ4, for about the same stored size and WAL (177 and 180 KB stored, 189 and
 * 192 KB of WAL; `EXPLAIN (ANALYZE, BUFFERS, WAL)`). Rows stored before keep pglz (each value
 * records its method). PGlite is built without LZ4: there the column keeps pglz, which the
 * block checks rather than fail.
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
