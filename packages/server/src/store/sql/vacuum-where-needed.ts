/**
 * `VACUUM` where PostgreSQL's autovacuum does not run (decision 0006, "Dead row versions"):
 * always on PGlite (single-user PostgreSQL has no autovacuum), and on a PostgreSQL server
 * whose `autovacuum` is off, or off for the table. An update or a delete leaves the row's old
 * version in the table, and an update that changes an indexed column (the engine's writes of
 * `enrolments.due_at`) or finds no room on its page leaves old entries in the indexes too.
 * Only a vacuum removes them; until one runs, every page read steps over them. Measured on PGlite (20,000 leads in one campaign, each
 * row rewritten five times): the campaign's last page of leads went from 30 to 67 ms, and to
 * 12 ms once vacuumed, since a vacuum also marks pages all-visible, which lets the page's
 * count run as an index-only scan.
 *
 * A table is vacuumed when autovacuum would have vacuumed it, by the server's own autovacuum
 * settings (PostgreSQL's defaults on PGlite): more dead rows than
 * `autovacuum_vacuum_threshold` + `autovacuum_vacuum_scale_factor` x its rows, or more rows
 * inserted since its last vacuum than the same pair for inserts. It is also analyzed in that
 * vacuum when it has changed enough since its last `ANALYZE` by the analyze pair: a vacuum
 * records the table's size, which would hide its growth from the statistics check
 * (planner-statistics.ts compares the size with the one last recorded). The counts are
 * PostgreSQL's (`pg_stat_user_tables`); PGlite keeps them too, a second or so behind.
 *
 * One table per statement: on PGlite a vacuum holds the one connection, so requests run
 * between tables rather than after all of them. `SKIP_LOCKED`: a table another session
 * vacuums (another server process, an operator) is left to it.
 */
import type { SqlClient } from './client.ts';
import { quotedIdentifier } from './identifier.ts';

/** Tables of the store's schema that autovacuum would vacuum, had it run for them. */
const tablesToVacuum = `
  with settings as (
    select current_setting('autovacuum_vacuum_threshold')::float8 as dead_base,
           current_setting('autovacuum_vacuum_scale_factor')::float8 as dead_scale,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
           current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
           current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
           current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
           current_setting('autovacuum') = 'off' as autovacuum_off
  )
  select s.relname as name,
         s.n_mod_since_analyze > settings.analyze_base + settings.analyze_scale * greatest(c.reltuples, 0) as analyze
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
   cross join settings
   where s.schemaname = current_schema() and c.relkind = 'r'
     and pg_has_role(c.relowner, 'USAGE')
     and ($1::boolean
          or settings.autovacuum_off
          or exists (select 1 from unnest(c.reloptions) option
                      where lower(option) in ('autovacuum_enabled=false', 'autovacuum_enabled=off',
                                              'autovacuum_enabled=no', 'autovacuum_enabled=0')))
     and (s.n_dead_tup > settings.dead_base + settings.dead_scale * greatest(c.reltuples, 0)
          -- An insert threshold of -1 turns vacuums for inserts off.
          or (settings.insert_base >= 0
              and s.n_ins_since_vacuum > settings.insert_base + settings.insert_scale * greatest(c.reltuples, 0)))
   order by s.relname`;

/**
 * The tables vacuumed (and analyzed where they had changed enough, unless in
 * `analyzedJustNow`: the statistics check's tables, whose counts may still be catching up
 * with the writes their `ANALYZE` sampled).
 */
export async function vacuumWhereNeeded(client: SqlClient, analyzedJustNow: readonly string[] = []): Promise<string[]> {
  const due = await client.query<{ name: string; analyze: boolean }>(tablesToVacuum, [client.kind === 'pglite']);
  const vacuumed: string[] = [];
  for (const { name, analyze: changed } of due) {
    const analyze = changed && !analyzedJustNow.includes(name);
    // The names come from pg_class: quoted as identifiers all the same.
    await client.query(`vacuum (skip_locked${analyze ? ', analyze' : ''}) ${quotedIdentifier(name)}`);
    vacuumed.push(name);
  }
  return vacuumed;
}
