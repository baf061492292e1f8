/**
 * Standard output for the server's log lines: pino's destination, sonic-boom (decision 0019
 * and its later sections).
 *
 * - In blocks: lines gather up to `blockBytes` (about 40 access lines) and at most 250 ms,
 *   then go in one write; on a terminal, where a person reads them, each line goes at once.
 * - Synchronously: a block is written by the call that logs the line filling it (or by the
 *   250 ms timer), on the server's one thread. A write left to libuv's threads could still be
 *   in flight when the process exits (an uncaught error, `process.exit`), and `flushSync`
 *   cannot finish it: its lines were lost or cut. With no write ever in flight, the flush at
 *   exit writes every line logged, in order. It is also one system call per block, with no
 *   hand-over between threads. The cost: while the reader of a pipe is more than the pipe's
 *   64 KB behind, the server waits for it instead of piling the lines up in memory.
 * - As bytes (`contentMode: 'buffer'`): given text, sonic-boom measured the UTF-8 length of all
 *   the text waiting at each line, which V8 first copies into one flat string, so the more
 *   lines waited, the more each one cost.
 */
import pino from 'pino';

/** How many bytes of lines wait for one write (at most 250 ms). */
const blockBytes = 16 * 1024;

export interface LogStdout {
  write(line: string): void;
  /** Writes what waits, at once (the process may exit right after). */
  flushSync(): void;
}

export function logStdout(pretty: boolean): LogStdout {
  const stdout = pino.destination({
    dest: 1,
    sync: true,
    contentMode: 'buffer',
    minLength: pretty ? 0 : blockBytes,
    maxWrite: 2 * blockBytes,
    periodicFlush: 250,
  });
  // Whatever ends the process, what waits is written first.
  process.once('exit', () => stdout.flushSync());
  return {
    write(line) {
      // `write` is looked up on each line: pino swaps it for a no-op when the reader has gone
      // (EPIPE). Its typings know text only; in buffer mode sonic-boom takes bytes.
      stdout.write(Buffer.from(line) as unknown as string);
    },
    flushSync: () => stdout.flushSync(),
  };
}
