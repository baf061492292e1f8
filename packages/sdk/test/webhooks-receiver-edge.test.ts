/**
 * `createFetchHandler` in Vercel's `edge-runtime` (the EdgeVM of Next.js middleware and edge
 * functions: Web APIs only, no Node), behind its own HTTP server, driven over real HTTP by
 * support/remote-receiver-checks.ts. Bundled as a worker script is (support/classic-script.ts).
 */
import { EdgeRuntime, runServer } from 'edge-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleClassicScript } from './support/classic-script.ts';
import { secret } from './support/receiver-contract.ts';
import { remoteReceiverChecks } from './support/remote-receiver-checks.ts';

describe('createFetchHandler in edge-runtime', () => {
  let runtime: EdgeRuntime;
  let server: Awaited<ReturnType<typeof runServer>>;

  beforeAll(async () => {
    const code = await bundleClassicScript({
      stdin: {
        contents: `
          import { createFetchHandler } from '../src/webhooks/receivers/fetch.ts';
          import { recordingReceiver } from './support/recording-receiver.mjs';
          const serve = recordingReceiver(createFetchHandler, ${JSON.stringify(secret)});
          addEventListener('fetch', (event) => event.respondWith(serve(event.request)));`,
        resolveDir: import.meta.dirname,
        loader: 'ts',
      },
    });
    runtime = new EdgeRuntime({ initialCode: code });
    server = await runServer({ runtime, port: 0, host: '127.0.0.1' });
  });

  afterAll(() => server?.close());

  it('has no Node APIs to fall back on', () => {
    expect(runtime.evaluate<string>('typeof require')).toBe('undefined');
    expect(runtime.evaluate<string>('typeof Buffer')).toBe('undefined');
  });

  remoteReceiverChecks(() => server.url.replace(/\/$/, ''));
});
