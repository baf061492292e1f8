/**
 * What the server tells a person when its log lines cannot be written to standard output (a
 * full disk, an I/O error, a reader that reads nothing for seconds): one line on standard
 * error when it starts, one when lines are written again, with how many were dropped
 * meanwhile, and one at exit if lines were still waiting. Never one per line: a failing
 * output fails at every line, and standard error may be the same full disk.
 */
import { writeSync } from 'node:fs';

export interface LogOutputTrouble {
  /** A write failed (said once, until a write succeeds again). */
  failed(error: NodeJS.ErrnoException): void;
  /** A line was dropped: too many were already waiting. */
  dropped(): void;
  /** A write succeeded. */
  written(): void;
  /** The process is exiting after its last flush. */
  exiting(): void;
}

/** A line on standard error, written at once (it may be the process's last act). */
function toStandardError(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // Standard error fails too: there is nowhere left to say it.
  }
}

/** The output's limits, as `log-stdout.ts` sets them: said in the lines, never restated here. */
export interface LogOutputLimits {
  /** Bytes of lines that wait while writes fail. */
  backlogBytes: number;
  /** How long a reader may read nothing before lines stop waiting for it. */
  stuckReaderMs: number;
}

export function logOutputTrouble(
  limits: LogOutputLimits,
  tell: (line: string) => void = toStandardError,
): LogOutputTrouble {
  const describe = (error: NodeJS.ErrnoException) =>
    error.code === 'EAGAIN' ? `its reader has read nothing for ${limits.stuckReaderMs / 1000} s` : error.message;
  let failure: string | undefined;
  let droppedLines = 0;
  return {
    failed(error) {
      if (failure !== undefined) return;
      failure = describe(error);
      tell(
        `ocs-server: warning: log lines cannot be written to standard output (${failure}); ` +
          `up to ${limits.backlogBytes / (1024 * 1024)} MB of them wait and later ones are dropped until a write succeeds`,
      );
    },
    dropped() {
      droppedLines += 1;
    },
    written() {
      if (failure === undefined) return;
      tell(`ocs-server: log lines are written to standard output again; ${droppedLines} were dropped meanwhile`);
      failure = undefined;
      droppedLines = 0;
    },
    exiting() {
      if (failure === undefined) return;
      tell(
        `ocs-server: warning: the log lines still waiting at exit were not written (${failure}); ` +
          `${droppedLines} more had been dropped`,
      );
    },
  };
}
