/**
 * A `prospect_response` receiver as a plain Fetch handler, `(Request) => Promise<Response>`:
 * the shape of Cloudflare Workers, Deno.serve, Bun.serve, Vercel and Netlify functions, and
 * Next.js route handlers. There `@ocs/sdk/webhooks` resolves to its Web Crypto build.
 */
import { createDeduplicator, verifyAndParse } from '@ocs/sdk/webhooks';
import type { ReceiverOptions } from './options.ts';
import { statusFor } from './status.ts';

export function createFetchHandler({
  secret,
  queue,
  dedupe = createDeduplicator(),
}: ReceiverOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    try {
      const event = await verifyAndParse(request, { secret });
      if (await dedupe.claim(event)) queue.push(event);
      return new Response(null, { status: 204 });
    } catch (error) {
      return new Response(null, { status: statusFor(error) });
    }
  };
}
