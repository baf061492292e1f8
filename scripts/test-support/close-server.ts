/**
 * Closes a test's HTTP server in an `afterAll`, whatever state the set-up left it in: not
 * created (the set-up failed before it), not listening, or holding a browser's keep-alive
 * connections (which would keep `close()` waiting until they time out).
 */
import type { Server } from 'node:http';

export function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
