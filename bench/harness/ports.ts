/**
 * Free ports only: servers of the bench process listen on port 0 on loopback; child servers
 * are started with port 0 and the bench reads the address they print.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';

/** Listens on a free loopback port; resolves to the origin, e.g. http://127.0.0.1:40123. */
export async function listenOnFreePort(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Waits for a child's output to match `pattern`; resolves to the match and all the output
 * so far. The stream keeps being drained afterwards, so that the child never blocks on it.
 */
export function waitForOutput(
  stream: Readable,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<{ match: RegExpExecArray; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => finish(new Error(`no match within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) finish(null, match);
    };
    const onEnd = () => finish(new Error(`the process ended before printing its address; output:\n${output}`));
    function finish(error: Error | null, match?: RegExpExecArray) {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.resume();
      if (error) reject(error);
      else resolve({ match: match as RegExpExecArray, output });
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
  });
}

/** The address a child printed once it listened: the first group of `pattern`. */
export async function addressFromOutput(stream: Readable, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const { match } = await waitForOutput(stream, pattern, timeoutMs);
  if (!match[1]) throw new Error(`${pattern} has no group for the address`);
  return match[1];
}
