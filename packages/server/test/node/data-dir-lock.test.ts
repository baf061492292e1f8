/**
 * The PGlite directory's lock (docs/decisions/0004-one-writer-per-data-dir.md): one holder;
 * a live one is reported, a dead one's lock is taken over, and when several processes find
 * the same stale lock at once exactly one of them gets it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, lockDataDir, lockPath, type LockHolder } from '../../src/node/data-dir-lock.ts';
import { bootId } from '../../src/node/lock-holder-liveness.ts';
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

/** A socket file nobody listens on: what a server killed with -9 leaves in its directory. */
async function deadSocket(path: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => child.once('close', resolve));
  if (!existsSync(path)) throw new Error('the dead socket was not left behind');
}

function writeLock(fields: Partial<LockHolder>): void {
  const lock: LockHolder = {
    pid: 1,
    hostname: hostname(),
    since: '2020-01-01T00:00:00.000Z',
    command: 'ocs-server serve',
    token: 'other',
    ...fields,
  };
  writeFileSync(lockPath(dataDir), JSON.stringify(lock));
}

// In a container a server is pid 1, and a new container has a new hostname: neither the pid
// nor another host can be checked with kill(pid, 0), so the admin socket decides.
describe('a holder whose pid cannot be checked', () => {
  const socketPath = () => join(dataDir, 'ocs-admin.sock');

  it('with our own pid (pid 1 after a container restart) and no socket: taken over', async () => {
    writeLock({ pid: process.pid, socket: socketPath() });
    const lock = await lockDataDir(dataDir, { command: 'next' });
    expect(lock.holder.token).not.toBe('other');
    lock.release();
  });

  it('with our own pid and a socket nobody listens on: taken over', async () => {
    await deadSocket(socketPath());
    writeLock({ pid: process.pid, socket: socketPath() });
    (await lockDataDir(dataDir, { command: 'next' })).release();
  });

  it('on another host sharing this kernel (another container) with a dead socket: taken over', async () => {
    await deadSocket(socketPath());
    writeLock({ hostname: 'old-container', ...(bootId() ? { boot: bootId() } : {}), socket: socketPath() });
    const acquired = await acquireDataDirLock(dataDir, { command: 'next' });
    expect('lock' in acquired).toBe(bootId() !== undefined);
    if ('lock' in acquired) acquired.lock.release();
  });

  it('whose socket answers: still held, whatever its pid or host', async () => {
    const live = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => live.listen(socketPath(), resolve));
    try {
      for (const fields of [{ pid: process.pid }, { hostname: 'old-container', boot: bootId() }]) {
        writeLock({ ...fields, socket: socketPath() });
        const acquired = await acquireDataDirLock(dataDir, { command: 'next' });
        expect(acquired).toEqual({ holder: expect.objectContaining({ token: 'other' }) });
      }
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  });

  it('on another machine: held, and the refusal says which file to remove', async () => {
    await deadSocket(socketPath());
    writeLock({ hostname: 'elsewhere', boot: 'another-kernel', socket: socketPath() });
    await expect(lockDataDir(dataDir, { command: 'next' })).rejects.toMatchObject({ undecided: true });
    expect(existsSync(lockPath(dataDir))).toBe(true);
  });
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
