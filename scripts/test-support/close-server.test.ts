import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { closeServer } from './close-server.ts';

it('resolves at once for a server never created or never listening', async () => {
  await expect(closeServer(undefined)).resolves.toBeUndefined();
  await expect(closeServer(createServer())).resolves.toBeUndefined();
});

it('closes a server with a request in flight, ending its connection', async () => {
  // A handler that never answers, as a page's request left pending when a test fails:
  // `server.close()` alone would wait for it forever (and the afterAll time out).
  let received: () => void = () => undefined;
  const requestArrived = new Promise<void>((resolve) => (received = resolve));
  const server = createServer(() => received());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const outgoing = request({ host: '127.0.0.1', port });
  const clientError = new Promise<Error>((resolve) => outgoing.on('error', resolve));
  outgoing.end();
  await requestArrived;

  await closeServer(server);
  expect(server.listening).toBe(false);
  expect((await clientError).message).toMatch(/socket hang up|ECONNRESET/);
});
