/** A `prospect_response` receiver on Express 5. */
import { createDeduplicator, verifyAndParse } from '@ocs/sdk/webhooks';
import express, { type Express } from 'express';
import type { ReceiverOptions } from './options.ts';
import { statusFor } from './status.ts';

export function createExpressReceiver({ secret, queue, dedupe = createDeduplicator() }: ReceiverOptions): Express {
  const app = express();
  // express.raw keeps the body as the Buffer received, which the signature covers. It must
  // run on this route instead of express.json(): a parsed body cannot be verified. Every
  // content type is read raw, so that the signature, not the header, decides.
  app.post('/webhooks/ocs', express.raw({ type: () => true, limit: '1mb' }), async (request, response) => {
    try {
      const event = await verifyAndParse({ payload: request.body, headers: request.headers }, { secret });
      if (await dedupe.claim(event)) queue.push(event);
      response.sendStatus(204);
    } catch (error) {
      response.sendStatus(statusFor(error));
    }
  });
  return app;
}
