/**
 * The Node server's logger: pino, at the level `LOG_LEVEL` names (`info` by default), one
 * JSON line per entry on standard output, or readable lines when standard output is a
 * terminal (`pretty-log-lines.ts`). Lines keep the shape the server always wrote: `level` as
 * a word, `time` in ISO form, `message`.
 */
import { isatty } from 'node:tty';
import pino from 'pino';
import type { AccessFields, Logger, LogLevel } from '../http/logger.ts';
import { accessLineJson } from './access-line.ts';
import { UsageError } from './cli-kit.ts';
import { echoed } from './echoed-value.ts';
import { type LogStdout, logStdout } from './log-stdout.ts';
import { prettyDestination } from './pretty-log-lines.ts';

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type NodeLogLevel = (typeof logLevels)[number];

/** `LOG_LEVEL` as a level; unset or empty is `info`, anything else unknown is a usage mistake. */
export function logLevelFrom(value: string | undefined): NodeLogLevel {
  if (value === undefined || value.trim() === '') return 'info';
  const level = value.trim().toLowerCase();
  if (!(logLevels as readonly string[]).includes(level)) {
    // Cut short too: the line shows what was set, never the 100,000 characters of a file pasted into it.
    throw new UsageError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got '${echoed(value)}'.`);
  }
  return level as NodeLogLevel;
}

export interface NodeLoggerOptions {
  /** Default: `LOG_LEVEL` from the environment. */
  level?: NodeLogLevel;
  /** Where lines go. Default: standard output. */
  destination?: { write(line: string): unknown };
  /** Readable lines rather than JSON. Default: when the destination is standard output and a terminal. */
  pretty?: boolean;
}

/** A pino logger behind the application's `Logger`, and `flush` for the last lines before exit. */
export interface NodeLogger extends Logger {
  flush(): void;
}

export function createNodeLogger(options: NodeLoggerOptions = {}): NodeLogger {
  const level = options.level ?? logLevelFrom(process.env.LOG_LEVEL);
  // `isatty(1)` rather than `process.stdout.isTTY`: making `process.stdout` puts a pipe in
  // non-blocking mode, where a write to a full pipe fails and sonic-boom waits 100 ms before
  // trying again; on a blocking pipe a write waits just as long as the reader needs.
  const pretty = options.pretty ?? (options.destination === undefined && isatty(1));
  const stdout = options.destination ? undefined : logStdout({ pretty });
  const sink = options.destination ?? (stdout as LogStdout);
  const root = pino(
    {
      level,
      messageKey: 'message',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pretty ? prettyDestination(sink, process.stdout.hasColors?.() ?? false) : sink,
  );
  const adapt = (instance: pino.Logger): Logger => ({
    log({ level: entryLevel, message, ...fields }) {
      instance[entryLevel](fields, message);
    },
    child: (bindings) => adapt(instance.child(bindings)),
  });
  // The access line skips pino's serializer when lines are JSON (a terminal's readable lines
  // go through pino, which the pretty destination reads): same line, a third of the cost.
  const access = pretty
    ? undefined
    : (entryLevel: LogLevel, fields: AccessFields) => {
        if (root.isLevelEnabled(entryLevel)) sink.write(accessLineJson(entryLevel, fields, new Date()));
      };
  // At the end, synchronously: the process may exit right after.
  return {
    ...adapt(root),
    ...(access ? { access } : {}),
    flush: () => (stdout ? stdout.flushSync() : root.flush()),
  };
}
