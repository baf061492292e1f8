/**
 * What the application logs through: structured lines with a level and a message. The
 * application is web-standard (the mock runs it in a browser), so it depends on this small
 * interface only; the Node server backs it with pino (`node/logger.ts`), tests with an array.
 * Lines never carry a lead's personal data: IDs, statuses and times only.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  level: LogLevel;
  message: string;
  [field: string]: unknown;
}

/** The access line's fields (`middleware/access-log.ts`), in the order they are written. */
export interface AccessFields {
  request_id: string;
  method: string;
  path: string;
  operation_id: string | null;
  status: number;
  duration_ms: number;
  organization_id: string | null;
  api_key_id: string | null;
}

export interface Logger {
  log(entry: LogEntry): void;
  /**
   * The access line, `log({ level, message: 'request', ...fields })` in effect. Optional: a
   * logger may write this one line of fixed shape, written once per request, faster than
   * its general path (the Node server's does, `node/access-line.ts`).
   */
  access?(level: LogLevel, fields: AccessFields): void;
  /** A logger whose every line carries `bindings` (pino's child loggers). Optional: see `childLogger`. */
  child?(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = { log() {} };

/** A logger whose every line carries `bindings`: the logger's own child, or one that adds them to each entry. */
export function childLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  if (logger === silentLogger) return silentLogger;
  if (logger.child) {
    // Made on the first line, not before: most requests write only their access line, which
    // carries the request ID itself (access-log.ts), and a pino child per request costs.
    const make = logger.child.bind(logger);
    let child: Logger | undefined;
    const made = () => (child ??= make(bindings));
    return { log: (entry) => made().log(entry), child: (more) => childLogger(made(), more) };
  }
  return {
    log: (entry) => logger.log({ ...bindings, ...entry }),
    child: (more) => childLogger(logger, { ...bindings, ...more }),
  };
}
