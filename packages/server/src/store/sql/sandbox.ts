/** SQL implementation of sandbox mode's shared state: one row, the sandbox clock's offset. */
import type { SandboxStateStore } from '../types.ts';
import type { SqlClient } from './client.ts';

export function sqlSandbox(client: SqlClient): SandboxStateStore {
  return {
    async clockOffset() {
      const [row] = await client.query<{ offset_ms: string | number }>('select offset_ms from sandbox_clock');
      return row ? Number(row.offset_ms) : 0;
    },
    async saveClockOffset(offsetMs) {
      // greatest(): a server that advanced less never moves the shared clock back.
      await client.query(
        `insert into sandbox_clock (id, offset_ms) values (true, $1)
           on conflict (id) do update set offset_ms = greatest(sandbox_clock.offset_ms, excluded.offset_ms)`,
        [Math.round(offsetMs)],
      );
    },
  };
}
