/**
 * `askAdminChannel` when the server goes away with the connection open (killed while it runs
 * a command): a reset is the channel unavailable, as a close is, so that the CLI looks again
 * and says "nothing was done" rather than "internal error: read ECONNRESET".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AdminChannelUnavailable, askAdminChannel } from '../../src/node/admin-channel.ts';

it('a connection reset before the answer is the channel closed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-admin-reset-'));
  const path = join(dir, 'admin.sock');
  // Closes the connection with the request unread, as a process killed mid-command does: the
  // client's read fails with ECONNRESET.
  const server = createServer({ pauseOnConnect: true }, (socket) => setTimeout(() => socket.destroy(), 100));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  try {
    const error = await askAdminChannel(path, { run: { command: 'org-list' } }, { timeoutMs: 5_000 }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AdminChannelUnavailable);
    expect(error).toMatchObject({ reason: 'closed' });
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
