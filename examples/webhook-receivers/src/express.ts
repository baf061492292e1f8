/** A `prospect_response` receiver on Express 5. */
import { createNodeHandler } from '@ocs/sdk/webhooks/node';
import express, { type Express } from 'express';
import type { ReceiverOptions } from './options.ts';

export function createExpressReceiver({ secret, queue, dedupe }: ReceiverOptions): Express {
  const app = express();
  // express.raw keeps the body as the Buffer received, which the signature covers: on this
  // route, before any express.json() (after which the receiver answers 500 parsed_body).
  app.post(
    '/webhooks/ocs',
    express.raw({ type: 'application/json', limit: '1mb' }),
    createNodeHandler({ secret, dedupe, onEvent: (event) => queue.push(event) }),
  );
  app.use(express.json()); // the rest of an application's routes
  return app;
}
