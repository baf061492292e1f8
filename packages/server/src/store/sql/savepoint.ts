/**
 * A transaction inside a transaction, on SQL: a SAVEPOINT. PostgreSQL aborts the whole
 * transaction on any error, so without one a nested transaction that fails (a
 * `UniqueViolation` its caller catches to read again and retry) would leave the outer
 * transaction unusable; rolled back to its savepoint, the nested work is undone and the outer
 * one goes on, as the memory store's rollback mark does.
 */
import type { SqlClient } from './client.ts';

/**
 * `transaction` for a client that is already one transaction's connection. `run` sends a
 * statement on that connection. Savepoint names only need to be unique while open, so one
 * counter per connection will do.
 */
export function savepoints(run: (statement: string) => Promise<unknown>) {
  let made = 0;
  return async <T>(client: SqlClient, work: (client: SqlClient) => Promise<T>): Promise<T> => {
    const name = `nested_${++made}`;
    await run(`savepoint ${name}`);
    try {
      // No RELEASE on success: the outer commit releases it, and a RELEASE would be a round
      // trip for nothing on every nested transaction that works.
      return await work(client);
    } catch (error) {
      await run(`rollback to savepoint ${name}`).catch(() => undefined);
      throw error;
    }
  };
}
