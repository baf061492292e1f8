/**
 * Names for prepared statements on a PostgreSQL server. A named statement is parsed and
 * planned once per connection instead of at every query: on the benchmark's GET that is a
 * third more requests per second, PostgreSQL sharing the machine's cores with the server.
 * Texts built at run time (lists of placeholders) could be unbounded, so past `limit`
 * distinct texts the rest run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private generation = 0;

  constructor(private readonly limit = 500) {}

  nameFor(text: string): string | undefined {
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
