/** A `prospect_response` receiver on Hono (served on Node by `@hono/node-server`). */
import { createFetchHandler } from '@ocs/sdk/webhooks/fetch';
import { Hono } from 'hono';
import type { ReceiverOptions } from './options.ts';

export function createHonoReceiver({ secret, queue, dedupe }: ReceiverOptions): Hono {
  const receive = createFetchHandler({ secret, dedupe, onEvent: (event) => queue.push(event) });
  const app = new Hono();
  // c.req.raw is the Fetch Request, body unread: pass it before any c.req.json().
  app.post('/webhooks/ocs', (c) => receive(c.req.raw));
  return app;
}
