/**
 * A HEAD answer goes out as the reference server's does: its status and headers, no body,
 * and no `Content-Length` (a HEAD answer may carry only the length the GET would have, or
 * none). The application answers HEAD with no body, as Hono does (`new Response(null, get)`),
 * and Node sends no length for it; but the journal hands its answers back rebuilt from the
 * text it read, `''` here, which @hono/node-server sends with `Content-Length: 0`.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

type Listener = (request: Request, env: HttpBindings | Http2Bindings) => Promise<Response>;

export function headAnswersWithoutBody(listener: Listener): Listener {
  return async (request, env) => {
    const response = await listener(request, env);
    if (request.method !== 'HEAD') return response;
    // A fault acted out on the socket, or a connection reset: there is no answer to rebuild.
    if (response === RESPONSE_ALREADY_SENT || response.status === 0) return response;
    // Status and headers: @hono/node-server writes no other part of it (Node adds the reason
    // phrase), and reading `statusText` would turn its light Response into a full one.
    return new Response(null, { status: response.status, headers: response.headers });
  };
}
