/** The Node listener on IPv6 loopback: its URL brackets the address, so clients can use it as given. */
import { expect, it } from 'vitest';
import { serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

it('serves on ::1 and reports http://[::1]:<port>', async () => {
  const server = await serve({ store: createMemoryStore(), port: 0, host: '::1', quiet: true });
  try {
    expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const answer = await fetch(`${server.url}/openapi.json`);
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
  } finally {
    await server.close();
  }
});
