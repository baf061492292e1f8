/**
 * pg-client ends a connection that is not made in time (a host that accepts it and never
 * speaks), and ocs-server says it in one line: the start and every command used to wait
 * forever. The timeout is the client's, not the pool's, whose option of the same name would
 * also end a request's wait for a pooled connection under load.
 */
import { createServer, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { environmentProblem } from '../../src/node/environment-problems.ts';
import { createPgClient } from '../../src/store/sql/pg-client.ts';

it('fails a connection that is not made within connectTimeoutMs, said as the settings’ problem', async () => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  const client = await createPgClient({
    connectionString: `postgres://nobody@127.0.0.1:${port}/none`,
    connectTimeoutMs: 200,
  });
  try {
    const error = await client.query('select 1').then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(environmentProblem(error)).toBe(
      'PostgreSQL did not answer within 10 s: check --database-url or DATABASE_URL (its host and port), and that the server runs.',
    );
  } finally {
    await client.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
