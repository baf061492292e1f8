/**
 * Structured logging: one JSON line per request, carrying the request ID that the answer
 * and its error body carry. Failures are logged with their internal detail here only.
 */
export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  [field: string]: unknown;
}

export interface Logger {
  log(entry: LogEntry): void;
}

export const silentLogger: Logger = { log() {} };

/** JSON lines on standard output (the Node entry's default). */
export const jsonLineLogger = (write: (line: string) => void): Logger => ({
  log(entry) {
    write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  },
});
