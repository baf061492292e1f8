/**
 * A PGlite data directory whose database files are damaged (a truncated `global/pg_control`,
 * a catalog's relation file emptied, a database subdirectory gone...), told apart from other
 * failures by what PostgreSQL itself says rather than by PGlite's error: PGlite only throws
 * "Aborted()" (after a PANIC) or "PGlite failed to initialize properly" (after a FATAL).
 *
 * - While the database opens, PostgreSQL writes its PANIC or FATAL (and a DETAIL) to its
 *   stderr, which PGlite hands to `onStderr` line by line: the first such complaint is kept.
 * - Once open, a page it cannot read is an error with SQLSTATE XX001 (data_corrupted) or
 *   XX002 (index_corrupted): the first catalog read (the migrations') meets an emptied file.
 */

/** PostgreSQL's SQLSTATEs for files it found damaged. */
const corruptionCodes = new Set(['XX001', 'XX002']);

/** At most this much of PostgreSQL's words goes into the one line the CLI prints. */
const reasonLimit = 240;

export class DamagedDataDirError extends Error {
  constructor(
    readonly dataDir: string,
    /** What PostgreSQL said, in its words. */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    const said = reason.length > reasonLimit ? `${reason.slice(0, reasonLimit)}…` : reason;
    super(
      `the database files in ${dataDir} are damaged (PostgreSQL: ${said}); ` +
        `restore the directory from a backup, or pass --data-dir with another directory (a new one starts an empty database).`,
      options,
    );
    this.name = 'DamagedDataDirError';
  }
}

/** Listens to PostgreSQL's stderr while PGlite opens a directory, keeping its first PANIC or FATAL. */
export interface StartupComplaints {
  /** PGlite's `onStderr`: returns false, so that PGlite still prints it under its `debug` option. */
  hear(line: string): boolean;
  /** What PostgreSQL complained of (with its DETAIL), or undefined. */
  readonly complaint: string | undefined;
  /** Stops keeping lines (once the database is open, its log is none of this). */
  stop(): void;
}

export function startupComplaints(): StartupComplaints {
  let complaint: string | undefined;
  let detailFor: string | undefined;
  let listening = true;
  return {
    hear(line) {
      if (!listening) return false;
      if (complaint === undefined) {
        const severe = /\b(?:PANIC|FATAL):\s+(.+)$/.exec(line);
        if (severe?.[1]) complaint = detailFor = severe[1].trim();
        return false;
      }
      // The DETAIL right after the complaint ("The database subdirectory "base/5" is missing.").
      const detail = detailFor !== undefined ? /\bDETAIL:\s+(.+)$/.exec(line) : null;
      if (detail?.[1]) complaint = `${complaint}: ${detail[1].trim()}`;
      detailFor = undefined;
      return false;
    },
    get complaint() {
      return complaint;
    },
    stop() {
      listening = false;
    },
  };
}

/** `error` as the damage of `dataDir` when PostgreSQL said its files are damaged; otherwise null. */
export function damageOf(error: unknown, dataDir: string, complaint?: string): DamagedDataDirError | null {
  if (error instanceof DamagedDataDirError) return error;
  if (complaint !== undefined) return new DamagedDataDirError(dataDir, complaint, { cause: error });
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  if (typeof code === 'string' && corruptionCodes.has(code) && typeof message === 'string')
    return new DamagedDataDirError(dataDir, message, { cause: error });
  return null;
}
