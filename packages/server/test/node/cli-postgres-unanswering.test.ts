/**
 * A --database-url whose host does not speak PostgreSQL: one that answers something else
 * and hangs up is said in one line (it was an "internal error"), and one that accepts the
 * connection and never speaks no longer holds `serve` past a second Ctrl-C (it ignored both)
 * nor, past pg-client's connect timeout, any command (test/store/pg-client-connect.test.ts).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { childEnv, oneLine, requireBuild, runCli, serverBin, stopAll } from './processes.ts';

beforeAll(requireBuild);

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
  await stopAll();
});

/** A TCP server on a free port that does `onConnection` with each client. */
async function listening(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

it('a host that answers something else than PostgreSQL: one line, exit code 1', async () => {
  const port = await listening((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
  const result = await runCli(['org', 'list', '--database-url', `postgres://nobody@127.0.0.1:${port}/none`]);
  expect(result.code).toBe(1);
  expect(oneLine(result.stderr)).toBe(
    'ocs-server: the connection to PostgreSQL closed unexpectedly: check that --database-url or DATABASE_URL points at a PostgreSQL server, and that it runs.',
  );
});

it(
  'serve while PostgreSQL does not answer: a second SIGINT ends it at once, exit code 130',
  { timeout: 30_000 },
  async () => {
    let connected: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const port = await listening(() => connected());
    const child = spawn(
      process.execPath,
      [serverBin, 'serve', '--port', '0', '--database-url', `postgres://nobody@127.0.0.1:${port}/none`],
      { stdio: ['ignore', 'ignore', 'pipe'], env: childEnv() },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      // It is connecting: its stop signals are listened for by now.
      await reached;
      process.kill(child.pid as number, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(child.pid as number, 'SIGINT');
      // Before pg-client's connect timeout would have ended it with exit code 1.
      expect(await exited).toBe(130);
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  },
);
