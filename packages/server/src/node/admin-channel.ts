/**
 * The admin channel of a serving process (docs/decisions/0004-one-writer-per-data-dir.md): a
 * Unix domain socket in the PGlite data directory, mode 0600, so only the local operator who
 * can use the directory reaches it. One request per connection: a JSON line in, a JSON line
 * out. The CLI sends its admin commands here when a server holds the directory, and the
 * server runs them on its own open store.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { firstLine } from './cli-kit.ts';

/**
 * Unix socket paths are limited to about 104 bytes (sun_path: 108 on Linux, 104 on macOS), in
 * bytes, not characters (`é` is two); longer ones go to a private temporary directory.
 */
const maxSocketPath = 100;
const maxMessageBytes = 1 << 20;

/** Where a server holding `dataDir` listens for admin commands. */
export function adminSocketPath(dataDir: string): string {
  if (process.platform === 'win32') {
    const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
    return `\\\\.\\pipe\\ocs-admin-${digest}-${process.pid}`;
  }
  const inside = join(dataDir, 'ocs-admin.sock');
  if (Buffer.byteLength(inside) <= maxSocketPath) return inside;
  return join(mkdtempSync(join(tmpdir(), 'ocs-admin-')), 'sock');
}

/** Removes the private temporary directory `adminSocketPath` may have made for a long path. */
export function discardAdminSocketPath(path: string): void {
  if (process.platform !== 'win32' && dirname(path).startsWith(join(tmpdir(), 'ocs-admin-')))
    rmSync(dirname(path), { recursive: true, force: true });
}

export interface AdminChannel {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listens on `path` (a socket file left by a killed holder is replaced: the caller holds the
 * directory's lock) and answers each request with `handle`'s result.
 */
export async function listenAdminChannel(
  path: string,
  handle: (request: unknown) => Promise<unknown>,
): Promise<AdminChannel> {
  // Connections that have not sent their request yet: closing the channel drops them, while
  // a command under way finishes and answers.
  const waiting = new Set<Socket>();
  const server = createServer((socket) => {
    waiting.add(socket);
    socket.on('close', () => waiting.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(30_000, () => {
      if (waiting.has(socket)) socket.destroy();
    });
    readLine(socket, (line) => {
      waiting.delete(socket);
      let request: unknown;
      try {
        request = JSON.parse(line);
      } catch {
        socket.end(`${JSON.stringify({ ok: false, kind: 'usage', message: 'The request is not JSON.' })}\n`);
        return;
      }
      handle(request).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (error: unknown) =>
          socket.end(`${JSON.stringify({ ok: false, kind: 'internal', message: firstLine(error) })}\n`),
      );
    });
  });
  const unix = process.platform !== 'win32';
  if (unix) removeIfPresent(path);
  // The socket is created with mode 0600 (umask), not made private after the fact.
  const umask = unix ? process.umask(0o177) : undefined;
  try {
    // A longer path would be cut short by the system: the socket would be made elsewhere.
    if (unix && Buffer.byteLength(path) > maxSocketPath)
      throw new Error(`The admin socket path ${path} is too long for a Unix socket.`);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
  try {
    if (unix) chmodSync(path, 0o600);
  } catch (error) {
    // Not left listening: an open listener would keep the failed process from exiting.
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  return {
    path,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of waiting) socket.destroy();
      });
      if (unix) {
        removeIfPresent(path);
        discardAdminSocketPath(path);
      }
    },
  };
}

/** Why the holder could not be asked: missing socket, nobody listening, or no answer in time. */
export class AdminChannelUnavailable extends Error {
  constructor(
    readonly reason: 'missing' | 'refused' | 'timeout' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'AdminChannelUnavailable';
  }
}

/** Sends one request and returns the parsed answer. */
export function askAdminChannel(path: string, request: unknown, options: { timeoutMs: number }): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      action();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new AdminChannelUnavailable('timeout', `no answer within ${Math.round(options.timeoutMs / 100) / 10} s`),
          ),
        ),
      options.timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          error.code === 'ENOENT'
            ? new AdminChannelUnavailable('missing', `its admin socket ${path} does not exist`)
            : error.code === 'ECONNREFUSED'
              ? new AdminChannelUnavailable('refused', `nothing listens on its admin socket ${path}`)
              : // The server went away with the connection open (it was killed, or crashed): as a close.
                error.code === 'ECONNRESET' || error.code === 'EPIPE'
                ? new AdminChannelUnavailable(
                    'closed',
                    `it dropped the admin connection without answering (${error.code})`,
                  )
                : error,
        ),
      ),
    );
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    readLine(socket, (line) =>
      settle(() => {
        try {
          resolve(JSON.parse(line));
        } catch {
          reject(new Error(`The server's admin channel answered something that is not JSON.`));
        }
      }),
    );
    socket.on('close', () =>
      settle(() => reject(new AdminChannelUnavailable('closed', 'it closed the admin connection without answering'))),
    );
  });
}

function readLine(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  let done = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end >= 0) {
      done = true;
      onLine(buffered.slice(0, end));
    } else if (buffered.length > maxMessageBytes) {
      done = true;
      socket.destroy();
    }
  });
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
