/** A `prospect_response` receiver on Hono (served on Node by `@hono/node-server`). */
import { createDeduplicator, verifyAndParse } from '@ocs/sdk/webhooks';
import { Hono } from 'hono';
import type { ReceiverOptions } from './options.ts';
import { statusFor } from './status.ts';

export function createHonoReceiver({ secret, queue, dedupe = createDeduplicator() }: ReceiverOptions): Hono {
  const app = new Hono();
  app.post('/webhooks/ocs', async (c) => {
    try {
      // c.req.raw is the Fetch Request, body unread: pass it before any c.req.json().
      const event = await verifyAndParse(c.req.raw, { secret });
      if (await dedupe.claim(event)) queue.push(event);
      return c.body(null, 204);
    } catch (error) {
      return c.body(null, statusFor(error));
    }
  });
  return app;
}
