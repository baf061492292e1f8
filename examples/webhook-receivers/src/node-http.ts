/** A `prospect_response` receiver on bare `node:http`. */
import { createServer, type Server } from 'node:http';
import { createNodeHandler } from '@ocs/sdk/webhooks/node';
import type { ReceiverOptions } from './options.ts';

export function createNodeHttpReceiver({ secret, queue, dedupe }: ReceiverOptions): Server {
  // Reads the raw body itself, verifies, skips repeats, and answers 200 once the event is queued.
  const receive = createNodeHandler({ secret, dedupe, onEvent: (event) => queue.push(event) });
  return createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://receiver').pathname === '/webhooks/ocs')
      return void receive(request, response);
    response.writeHead(404).end();
  });
}
