/**
 * Names for prepared statements on a PostgreSQL server. A named statement is parsed and
 * planned once per connection instead of at every query: on the benchmark's GET that is a
 * third more requests per second, PostgreSQL sharing the machine's cores with the server.
 * Texts built at run time (lists of placeholders) could be unbounded, so past `limit`
 * distinct texts the rest run unnamed.
 */
/**
 * Begins a text PostgreSQL must plan at every run, with its parameters' values and the
 * tables' sizes of the moment (decision 0006): never named, so never given a generic plan.
 * Without statistics a generic plan made while a table was tiny (a fresh database) can pick
 * an index on a tie whose cost then grows with the table, and keep it for the connection's
 * life: `findByEmail` walked every lead of the organization through `leads_newest`.
 */
export const planEachRun = '/* plan each run */ ';

export class StatementNames {
  private readonly names = new Map<string, string>();
  private generation = 0;

  constructor(private readonly limit = 500) {}

  nameFor(text: string): string | undefined {
    if (text.startsWith(planEachRun)) return undefined;
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.limit) {
      name = `ocs_${this.generation}_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  /**
   * Starts afresh with new names, after PostgreSQL refused a prepared statement whose tables
   * changed under it (a migration by another process: "cached plan must not change result
   * type"); the new names are prepared again on every connection.
   */
  renew(): void {
    this.names.clear();
    this.generation += 1;
  }
}

/** PostgreSQL's refusal of a prepared statement whose result columns changed (SQLSTATE 0A000). */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '0A000' && message?.includes('cached plan') === true;
}
