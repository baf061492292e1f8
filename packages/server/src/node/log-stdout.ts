/**
 * Standard output for the server's log lines: a sonic-boom stream (decision 0019 and its later
 * sections), which pino writes to.
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
 * - A log that cannot be written never stops the server (decision 0019, "When standard output
 *   fails"): `log-output-trouble.ts` says so on standard error, lines wait up to
 *   `backlogBytes` and later ones are dropped and counted, and writing resumes by itself.
 */
import SonicBoom, { type SonicBoomOpts } from 'sonic-boom';
import { type LogOutputTrouble, logOutputTrouble } from './log-output-trouble.ts';

/** How many bytes of lines wait for one write (at most 250 ms). */
const blockBytes = 16 * 1024;
/** How many bytes of lines wait while standard output fails; later lines are dropped. */
const backlogBytes = 1024 * 1024;
/**
 * How many times a write the reader has no room for is tried again, 100 ms apart, before the
 * reader counts as stuck (EAGAIN: only on a pipe someone else made non-blocking). A reader
 * that is only slow is waited for; one that reads nothing for 5 s no longer holds up requests.
 */
const stuckReaderRetries = 50;
/** sonic-boom's wait between two tries of a write the reader has no room for. */
const sonicBoomRetryMs = 100;

export interface LogStdout {
  write(line: string): void;
  /** Writes what waits, at once (the process may exit right after). */
  flushSync(): void;
}

export interface LogStdoutOptions {
  /** Readable lines for a person: each one written at once. */
  pretty: boolean;
  /** Default: 1, standard output. */
  fd?: number;
  /** Where trouble with the output is told. Default: a line on standard error. */
  tell?: (line: string) => void;
}

export function logStdout({ pretty, fd = 1, tell }: LogStdoutOptions): LogStdout {
  const options: SonicBoomOpts & { maxWriteRetries: number } = {
    fd,
    sync: true,
    contentMode: 'buffer',
    minLength: pretty ? 0 : blockBytes,
    maxWrite: 2 * blockBytes,
    maxLength: backlogBytes,
    maxWriteRetries: stuckReaderRetries,
    periodicFlush: 250,
  };
  // `maxWriteRetries` (sonic-boom 5) is missing from its typings.
  const stream = new SonicBoom(options);
  const trouble: LogOutputTrouble = logOutputTrouble(
    { backlogBytes, stuckReaderMs: stuckReaderRetries * sonicBoomRetryMs },
    tell,
  );
  // The reader has gone (EPIPE): nothing written from now on could reach anyone.
  let readerGone = false;
  const failed = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') trouble.failed(error);
    else if (!readerGone) {
      readerGone = true;
      // Its timer would try the block again every 250 ms, forever. Not from inside its own
      // write; standard output itself is never closed by it.
      queueMicrotask(() => stream.destroy());
    }
  };
  // Without a listener, an error of a synchronous write would be thrown inside the request
  // that logged the line; with one, the stream keeps the unwritten block for its next write.
  stream.on('error', failed);
  stream.on('drop', () => trouble.dropped());
  // A try again after EAGAIN reports a write of 0 bytes: not a write that went through.
  stream.on('write', (bytes: number) => {
    if (bytes > 0) trouble.written();
  });
  const flushSync = () => {
    if (readerGone) return;
    try {
      stream.flushSync();
      // sonic-boom's flushSync emits no 'write' event.
      trouble.written();
    } catch (error) {
      failed(error as NodeJS.ErrnoException);
    }
  };
  process.once('exit', () => {
    // Whatever ends the process, what waits is written first, or said to be lost.
    flushSync();
    if (!readerGone) trouble.exiting();
  });
  return {
    write(line) {
      // Its typings know text only; in buffer mode sonic-boom takes bytes.
      if (!readerGone) stream.write(Buffer.from(line) as unknown as string);
    },
    flushSync,
  };
}
