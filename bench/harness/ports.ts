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
 * Waits for a child's output to match `pattern` and resolves to its first group (the address
 * the child printed once it listened). The stream keeps being drained afterwards.
 */
export function addressFromOutput(stream: Readable, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => finish(new Error(`no address within ${timeoutMs} ms; output:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1]) finish(null, match[1]);
    };
    const onEnd = () => finish(new Error(`the process ended before printing its address; output:\n${output}`));
    function finish(error: Error | null, address?: string) {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.resume(); // keep draining, so that the child never blocks on a full pipe
      if (error) reject(error);
      else resolve(address as string);
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
  });
}
