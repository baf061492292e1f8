/**
 * `serve` on a free loopback port, its log lines kept: for the tests of what a server's
 * keepers (statistics, vacuum, expired answers) tell the operator.
 */
import type { LogEntry } from '../../src/http/logger.ts';
import { type RunningServer, serve, type ServeOptions } from '../../src/node/serve.ts';

export async function serveLogging(
  options: Omit<ServeOptions, 'port' | 'host' | 'logger'>,
): Promise<{ running: RunningServer; lines: LogEntry[] }> {
  const lines: LogEntry[] = [];
  const running = await serve({
    ...options,
    port: 0,
    host: '127.0.0.1',
    logger: { log: (entry) => lines.push(entry) },
  });
  return { running, lines };
}
