/**
 * The PGlite directory's lock (docs/decisions/0004-one-writer-per-data-dir.md): one holder;
 * a live one is reported, a dead one's lock is taken over, and when several processes find
 * the same stale lock at once exactly one of them gets it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { acquireDataDirLock, lockDataDir, lockPath, type LockHolder } from '../../src/node/data-dir-lock.ts';
import { openStore } from '../../src/node/open-store.ts';

let dataDir: string;
const children: number[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-lockfile-'));
});
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('close', resolve));
  return child.pid ?? 0;
}

function writeStaleLock(pid: number): void {
  const stale: LockHolder = {
    pid,
    hostname: hostname(),
    since: '2020-01-01T00:00:00.000Z',
    command: 'ocs-server serve',
    token: 'stale',
  };
  writeFileSync(lockPath(dataDir), JSON.stringify(stale));
}

it('has one holder at a time, and lets go on release', async () => {
  const lock = await lockDataDir(dataDir, { command: 'first' });
  expect(JSON.parse(readFileSync(lockPath(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, command: 'first' });

  const second = await acquireDataDirLock(dataDir, { command: 'second' });
  expect(second).toEqual({ holder: lock.holder });
  await expect(lockDataDir(dataDir, { command: 'second' })).rejects.toThrow(/in use by first \(pid \d+, since /);

  lock.release();
  expect(existsSync(lockPath(dataDir))).toBe(false);
  (await lockDataDir(dataDir, { command: 'third' })).release();
});

it('takes over the lock of a process that is gone', async () => {
  writeStaleLock(await deadPid());
  const lock = await lockDataDir(dataDir, { command: 'next' });
  expect(lock.holder.pid).toBe(process.pid);
  lock.release();
});

it('opens a store only under the lock: a second open of the directory is refused', async () => {
  const store = await openStore({ dataDir });
  await expect(openStore({ dataDir })).rejects.toThrow(/in use by a Node process \(openStore\)/);
  await store.close();
  expect(existsSync(lockPath(dataDir))).toBe(false);
});

it('gives a stale lock to exactly one of several processes racing for it', { timeout: 60_000 }, async () => {
  writeStaleLock(await deadPid());
  const script = join(dataDir, 'racer.mts');
  writeFileSync(
    script,
    `import { acquireDataDirLock } from ${JSON.stringify(join(import.meta.dirname, '../../src/node/data-dir-lock.ts'))};
const acquired = await acquireDataDirLock(process.argv[2], { command: 'racer' });
process.stdout.write('lock' in acquired ? 'won' : 'held');
if ('lock' in acquired) setTimeout(() => acquired.lock.release(), 8000);`,
  );
  const racers = Array.from({ length: 4 }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.pid !== undefined) children.push(child.pid);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    return new Promise<string>((resolve) => child.once('close', () => resolve(out)));
  });
  const outcomes = await Promise.all(racers);
  expect(outcomes.filter((outcome) => outcome === 'won')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(3);
});
