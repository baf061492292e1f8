/**
 * Errors of the machine or the settings rather than of the program, said in one line with
 * what to do (`ocs-server`'s report): a PostgreSQL server that cannot be reached or refuses
 * the connection, a data directory that cannot be made or written. Anything else stays an
 * internal error.
 */

import { connectTimeoutMs } from '../store/sql/connect-timeout.ts';

const unreachable = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const unusablePath = new Set(['EEXIST', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EISDIR', 'ENAMETOOLONG']);
/** PostgreSQL's SQLSTATEs for a refused login or a missing database. */
const refused = new Set(['28P01', '28000', '3D000']);

export function environmentProblem(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, path, message, dataDir, unmadeDataDir } = error as {
    code?: unknown;
    path?: unknown;
    message?: unknown;
    dataDir?: unknown;
    /** Set by `makeDataDir`: the error came from making this data directory. */
    unmadeDataDir?: unknown;
  };
  // pg's error for `sslmode=require` against a server without SSL has no code.
  if (message === 'The server does not support SSL connections') {
    return 'the PostgreSQL server does not accept SSL connections: remove sslmode from --database-url or DATABASE_URL, or turn SSL on in the server.';
  }
  // pg's errors for a host that accepts the connection and never speaks (pg-client.ts ends
  // the wait), and for one that speaks something else than PostgreSQL and hangs up: no code.
  if (message === 'timeout expired') {
    return `PostgreSQL did not answer within ${connectTimeoutMs / 1000} s: check --database-url or DATABASE_URL (its host and port), and that the server runs.`;
  }
  if (message === 'Connection terminated unexpectedly') {
    return 'the connection to PostgreSQL closed unexpectedly: check that --database-url or DATABASE_URL points at a PostgreSQL server, and that it runs.';
  }
  if (typeof code !== 'string') return null;
  if (code === 'EACCES' && typeof path === 'string' && typeof dataDir === 'string') {
    return `cannot read or write ${path} (EACCES): run ocs-server as the user that owns the files of ${dataDir}, or give this user access to them.`;
  }
  if (unreachable.has(code)) {
    return `cannot reach PostgreSQL (${code}): check --database-url or DATABASE_URL, and that the server runs.`;
  }
  if (refused.has(code)) {
    return `PostgreSQL refused the connection (${String(message)}): check --database-url or DATABASE_URL.`;
  }
  // A data directory whose parent cannot be made (under /proc: make-directories.ts); only
  // then, since an ENOENT elsewhere is a missing file, not a directory to choose.
  const missingParent = code === 'ENOENT' && typeof unmadeDataDir === 'string';
  if ((unusablePath.has(code) || missingParent) && typeof path === 'string') {
    return `cannot use ${shownPath(path)} (${code}): pass --data-dir with a directory this user can write.`;
  }
  return null;
}

/** A path as a one-line message shows it: a name too long to use (ENAMETOOLONG) cut short. */
function shownPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
