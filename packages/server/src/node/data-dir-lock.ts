/**
 * One writer per PGlite data directory (docs/decisions/0004-one-writer-per-data-dir.md).
 *
 * A process that opens a PGlite directory first creates `ocs.lock` in it, atomically (a hard
 * link of a complete temporary file, so the lock is never seen half written), holding its pid,
 * host, start time and, for `serve`, the address of its admin channel. A lock whose pid is gone
 * on this host is stale (the holder was killed) and is taken over, under a second short-lived
 * lock so that two processes cannot both take it over. A holder whose pid cannot be checked
 * (our own pid, as pid 1 in a container; another hostname, as a new container) is judged by
 * its admin socket (`lock-holder-liveness.ts`). The lock is removed on close and, as a last
 * resort, when the process exits.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliFailure } from './cli-kit.ts';
import { bootId, holderLiveness, livenessByPid } from './lock-holder-liveness.ts';

export interface LockHolder {
  pid: number;
  hostname: string;
  /** The kernel's boot id (Linux): the same in every container of a machine, new after a reboot. */
  boot?: string;
  /** When the holder took the lock (ISO 8601). */
  since: string;
  /** What holds it, for people: `ocs-server serve`, `ocs-server key create`... */
  command: string;
  /** The holder's admin channel (a Unix socket or a named pipe), when it serves one. */
  socket?: string;
  /** Tells this holder's lock from a later one of the same pid. */
  token: string;
}

export interface DataDirLock {
  readonly dataDir: string;
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock if it is still this one. Idempotent. */
  release(): void;
}

/** `undecided`: the holder could not be checked from here (see `judge`). */
export type Acquired = { lock: DataDirLock } | { holder: LockHolder; undecided?: true };

export class DataDirHeldError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    /** The holder could not be checked from here: the message says how to recover by hand. */
    readonly undecided = false,
  ) {
    super(`${dataDir} is in use by ${describeHolder(holder)}`);
    this.name = 'DataDirHeldError';
  }
}

export const lockFileName = 'ocs.lock';

export function lockPath(dataDir: string): string {
  return join(dataDir, lockFileName);
}

/** `ocs-server serve (pid 123, since 2026-01-01T10:00:00.000Z)`, naming the host if not this one. */
export function describeHolder(holder: LockHolder): string {
  const host = holder.hostname === hostname() ? '' : ` on host ${holder.hostname}`;
  return `${holder.command} (pid ${holder.pid}${host}, since ${holder.since})`;
}

/**
 * What to do about a holder that could not be checked from here (another machine, or a
 * container whose admin socket is out of reach): remove the lock by hand, once sure.
 */
export function recoverByHand(dataDir: string): string {
  return `it cannot be checked from here: if no ocs-server uses ${dataDir} any more (a server killed in another container or on another host), remove ${lockPath(dataDir)} and run the command again.`;
}

/** The current lock's holder, or null when there is none (or it cannot be read as a lock). */
export function readLock(dataDir: string): LockHolder | null {
  return readHolder(lockPath(dataDir));
}

/**
 * Whether the holder may still be running: this very process when it holds the lock (a second
 * open in one process is refused too), otherwise as `holderLiveness` judges. A holder that
 * cannot be judged (another machine, whose socket cannot be reached from here) counts as
 * alive, and is marked so that the refusal says how to recover by hand.
 */
async function judge(holder: LockHolder, dataDir: string): Promise<'alive' | 'gone' | 'unknown'> {
  if (heldTokens().has(holder.token)) return 'alive';
  return holderLiveness(holder, dataDir);
}

/**
 * Takes the directory's lock, taking over a stale one. A live holder without an admin channel
 * (another short command) is waited for up to `waitMs`; a live holder with one (a server) is
 * returned at once, for the caller to ask it or refuse.
 */
export async function acquireDataDirLock(
  dataDir: string,
  options: { command: string; socket?: string; waitMs?: number },
): Promise<Acquired> {
  const path = lockPath(dataDir);
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    ...(bootId() ? { boot: bootId() } : {}),
    since: new Date().toISOString(),
    command: options.command,
    ...(options.socket ? { socket: options.socket } : {}),
    token: randomBytes(8).toString('hex'),
  };
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let round = 0; ; round++) {
    if (round > 1000) throw new Error(`Could not take the lock ${path}: it keeps changing.`);
    if (createExclusive(path, holder)) return { lock: heldLock(dataDir, path, holder) };
    const current = readHolder(path);
    if (current === null) {
      // Something other than a file (a directory): no lock could ever be made; say so.
      if (!isFileOrAbsent(path))
        throw new CliFailure(
          `${path} is not a lock file: if no ocs-server uses ${dataDir}, remove it and run the command again.`,
        );
      // Gone since (released), or not a lock at all: take it over like a stale one.
      if (!readable(path)) continue;
      await takeOver(path, null);
      continue;
    }
    const liveness = await judge(current, dataDir);
    if (liveness === 'gone') {
      await takeOver(path, current);
      continue;
    }
    // A server stays; so does this very process (waiting would not make it let go).
    const ours = heldTokens().has(current.token);
    if (current.socket || ours || Date.now() >= deadline)
      return liveness === 'unknown' ? { holder: current, undecided: true } : { holder: current };
    await sleep(50);
  }
}

/** Like acquireDataDirLock, but throws DataDirHeldError when a live process holds it. */
export async function lockDataDir(
  dataDir: string,
  options: { command: string; socket?: string; waitMs?: number },
): Promise<DataDirLock> {
  const acquired = await acquireDataDirLock(dataDir, options);
  if ('holder' in acquired) throw new DataDirHeldError(dataDir, acquired.holder, acquired.undecided === true);
  return acquired.lock;
}

const held = new Set<DataDirLock>();
let exitHookInstalled = false;

function heldTokens(): Set<string> {
  return new Set([...held].map((lock) => lock.holder.token));
}

function heldLock(dataDir: string, path: string, holder: LockHolder): DataDirLock {
  const lock: DataDirLock = {
    dataDir,
    path,
    holder,
    release() {
      if (!held.delete(lock)) return;
      if (readHolder(path)?.token === holder.token) removeIfPresent(path);
    },
  };
  held.add(lock);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that ends without closing (an uncaught error, process.exit) still lets go.
    process.on('exit', () => {
      for (const lock of [...held]) lock.release();
    });
  }
  return lock;
}

/**
 * Creates `path` with the holder in it only if it does not exist: a hard link of a complete
 * temporary file, so that a reader never sees it half written. File systems without hard
 * links get an O_EXCL create instead.
 */
function createExclusive(path: string, holder: LockHolder): boolean {
  const content = `${JSON.stringify(holder)}\n`;
  const temporary = `${path}.${holder.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
    try {
      writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    removeIfPresent(temporary);
  }
}

/**
 * Removes a stale lock, holding `<lock>.takeover` meanwhile and checking under it that the
 * lock is still the stale one: without that, a process that judged it stale a moment ago
 * could remove the lock another process has just taken over.
 */
async function takeOver(path: string, stale: LockHolder | null): Promise<void> {
  const guardPath = `${path}.takeover`;
  const guard: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    since: new Date().toISOString(),
    command: 'lock takeover',
    token: randomBytes(8).toString('hex'),
  };
  if (!createExclusive(guardPath, guard)) {
    const other = readHolder(guardPath);
    // A taker killed while holding the guard leaves it behind: it is stale like any lock. The
    // guard is held for milliseconds, so one whose pid cannot be checked is stale when old.
    const liveness = other === null ? 'unknown' : livenessByPid(other);
    if (other !== null && liveness === 'gone') {
      if (readHolder(guardPath)?.token === other.token) removeIfPresent(guardPath);
    } else if (liveness === 'unknown' && olderThan(guardPath, 5_000)) {
      removeIfPresent(guardPath);
    } else {
      await sleep(20);
    }
    return;
  }
  try {
    const current = readHolder(path);
    const same = stale === null ? current === null : current?.token === stale.token;
    if (same) removeIfPresent(path);
  } finally {
    removeIfPresent(guardPath);
  }
}

function readHolder(path: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.since === 'string' &&
      typeof value.command === 'string' &&
      typeof value.token === 'string' &&
      (value.boot === undefined || typeof value.boot === 'string') &&
      (value.socket === undefined || typeof value.socket === 'string')
    ) {
      return value as LockHolder;
    }
  } catch {
    // not JSON: not a lock this program wrote
  }
  return null;
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

function isFileOrAbsent(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

function readable(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
