/** A `prospect_response` receiver on bare `node:http`. */
import { createServer, type Server } from 'node:http';
import { createDeduplicator, verifyAndParse } from '@ocs/sdk/webhooks';
import type { ReceiverOptions } from './options.ts';
import { statusFor } from './status.ts';

const maxBody = 1024 * 1024;

export function createNodeHttpReceiver({ secret, queue, dedupe = createDeduplicator() }: ReceiverOptions): Server {
  return createServer(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    // The signature covers the exact bytes received: keep them as they are, never re-serialise.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBody) return void response.writeHead(413).end();
      chunks.push(chunk);
    }
    try {
      const event = await verifyAndParse({ payload: Buffer.concat(chunks), headers: request.headers }, { secret });
      // Retries carry the same idempotency_key: handle each event once, answer 2xx every time.
      if (await dedupe.claim(event)) queue.push(event);
      response.writeHead(204).end();
    } catch (error) {
      response.writeHead(statusFor(error)).end();
    }
  });
}
