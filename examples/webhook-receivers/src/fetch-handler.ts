/**
 * A `prospect_response` receiver as a plain Fetch handler, `(Request) => Promise<Response>`:
 * the shape of Cloudflare Workers, Deno.serve, Bun.serve, Vercel and Netlify functions, and
 * Next.js route handlers (`export const POST = createFetchHandler(...)`).
 */
import { createFetchHandler } from '@ocs/sdk/webhooks/fetch';
import type { ReceiverOptions } from './options.ts';

export function createFetchReceiver({
  secret,
  queue,
  dedupe,
}: ReceiverOptions): (request: Request) => Promise<Response> {
  return createFetchHandler({ secret, dedupe, onEvent: (event) => queue.push(event) });
}
