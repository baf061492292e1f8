/**
 * Whether the process named in a data directory's lock may still be running
 * (docs/decisions/0004-one-writer-per-data-dir.md).
 *
 * A pid is only meaningful on the host and in the PID namespace it was written in. In a
 * container a server is usually pid 1, so after a crash the next server finds a lock with its
 * own pid; a new container has a new hostname. Neither can be checked with `kill(pid, 0)`, so
 * for those the admin socket decides: a server that runs answers on it. That socket test is
 * trusted only where a socket that nobody listens on proves the server gone: on this host, or
 * on another one sharing this kernel (the same boot id: another container on this machine).
 * A lock from another machine (a shared network directory) stays undecided.
 */
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** What the lock tells of its holder's whereabouts. */
export interface HolderPlace {
  pid: number;
  hostname: string;
  /** The kernel's boot id when the lock was written (Linux), telling a reboot or another machine apart. */
  boot?: string;
  socket?: string;
}

/** `alive`: may be running; `gone`: certainly not; `unknown`: cannot be told from here. */
export type Liveness = 'alive' | 'gone' | 'unknown';

let cachedBoot: string | null | undefined;

/** This kernel's boot id (the same in every container on this machine), or undefined off Linux. */
export function bootId(): string | undefined {
  if (cachedBoot === undefined) {
    try {
      cachedBoot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      cachedBoot = null;
    }
  }
  return cachedBoot ?? undefined;
}

/**
 * What can be told without asking the socket: a pid on this host in this PID namespace is
 * checked with signal 0; a lock written before this host's last boot is gone. Our own pid (a
 * lock this process does not hold) and another host are `unknown` here.
 */
export function livenessByPid(holder: HolderPlace): Liveness {
  const sameHost = holder.hostname === hostname();
  const boot = bootId();
  if (sameHost && holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return 'gone';
  if (!sameHost || holder.pid === process.pid) return 'unknown';
  try {
    process.kill(holder.pid, 0);
    return 'alive';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'alive';
  }
}

/**
 * `livenessByPid`, then, for what it leaves undecided, the admin socket: answering means
 * alive; nobody listening on a socket file in the directory, or no socket file there, means
 * gone when the lock was written on this host or on this kernel. A lock without a socket (a
 * short command) with our own pid on this host is gone: no other process here has our pid.
 */
export async function holderLiveness(holder: HolderPlace, dataDir: string): Promise<Liveness> {
  const byPid = livenessByPid(holder);
  if (byPid !== 'unknown') return byPid;
  const sameHost = holder.hostname === hostname();
  const sameKernel = holder.boot !== undefined && holder.boot === bootId();
  if (!holder.socket) return sameHost ? 'gone' : 'unknown';
  const answer = await probeSocket(holder.socket);
  if (answer === 'answers' || answer === 'unsure') return 'alive';
  if (!sameHost && !sameKernel) return 'unknown';
  // A socket outside the directory (a long path's temporary one) may be in another
  // container's own /tmp: its absence from here proves nothing.
  if (answer === 'missing' && dirname(holder.socket) !== dataDir) return sameHost ? 'gone' : 'unknown';
  return 'gone';
}

/** Connects to a Unix socket or named pipe and hangs up at once. */
function probeSocket(path: string): Promise<'answers' | 'refused' | 'missing' | 'unsure'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (result: 'answers' | 'refused' | 'missing' | 'unsure') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    // A server too busy to accept within the time still counts as running.
    const timer = setTimeout(() => done('unsure'), 2000);
    socket.once('connect', () => done('answers'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'refused' : error.code === 'ENOENT' ? 'missing' : 'unsure'),
    );
  });
}
