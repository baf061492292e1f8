/**
 * `ocs-server serve` whose standard output is a full disk (`/dev/full`: every write fails with
 * ENOSPC), as when the file its log is redirected to fills the disk. It serves every request
 * as usual, says so once on standard error (not once per line), and stops on SIGTERM with exit
 * code 0, saying that the last lines were not written. Before, the first failed write threw
 * inside the request that logged it, and the flush at exit tried again forever.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { childEnv, requireBuild, serverBin, stopAll } from './processes.ts';

let root: string;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'ocs-log-full-disk-'));
});
afterEach(stopAll);
afterAll(() => rmSync(root, { recursive: true, force: true }));

it(
  'serves every request, tells the trouble once, and exits 0 when its log cannot be written',
  { timeout: 120_000 },
  async () => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [serverBin, 'serve', '--port', '0', '--data-dir', join(root, 'data')], {
      stdio: ['ignore', full, 'pipe'],
      env: childEnv({ LOG_LEVEL: 'info' }),
    });
    closeSync(full);
    const childStderr = child.stderr;
    if (!childStderr) throw new Error('no stderr pipe');
    let stderr = '';
    childStderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      childStderr.on('data', () => {
        const match = /OCS reference server on (\S+\/v1) /.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
    });

    // About 1.6 MB of access lines (8,000 of about 200 bytes): more than the 1 MB that may wait, so some are dropped.
    const statuses = new Map<number, number>();
    for (let round = 0; round < 160; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${url}/campaigns`, {
            headers: { 'X-Request-ID': `full-disk-${round}-${i}` },
          }),
        ),
      );
      for (const answer of answers) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        await answer.arrayBuffer();
      }
    }
    // No API key: every one of them is the API's own 401, none a 500 or a dropped connection.
    expect(Object.fromEntries(statuses)).toEqual({ 401: 8000 });

    const warnings = stderr.split('\n').filter((line) => line.includes('log lines'));
    expect(warnings).toEqual([
      expect.stringMatching(/^ocs-server: warning: log lines cannot be written to standard output \(ENOSPC/),
    ]);

    if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(
      /the log lines still waiting at exit were not written \(ENOSPC[^)]*\); [1-9]\d* more had been dropped/,
    );
    expect(stderr).not.toMatch(/^\s+at /m);
  },
);
