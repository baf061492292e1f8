/**
 * The node:http server the API is answered on: the reference server's (`serve.ts`) and the
 * standalone mock's (`ocs-mock`), so that both answer what reaches them the same way. Each
 * request's header lines are recorded (a header the API reads once that came twice is
 * refused, not joined), and what Node's parser refuses or would answer bare (431, malformed
 * HTTP, `Expect`, `CONNECT`, a target that is not a path, no `Host` in HTTP/1.1) or hand on
 * unreadable (a transfer coding but chunked) is answered in the API's error body, with the
 * `RateLimit-*` headers of an uncounted request and the CORS headers. An HTTP/1.0 request
 * needs no `Host`, and every header goes out as the bytes it holds.
 * Node only: its own entry (`@ocs/server/http-server`), since the package's main entry is
 * imported by the mock's browser build too.
 */
import { getRequestListener, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerHalfClosedClients } from '../http/half-closed-clients.ts';
import { withHeaderLines } from '../http/header-lines.ts';
import type { Logger } from '../http/logger.ts';
import { type CorsPolicy, corsHeaders } from '../http/middleware/cors.ts';
import { type RateLimiter, rateLimitHeaders } from '../http/rate-limit.ts';
import { answerClientErrors } from './client-errors.ts';
import { ByteExactHeadResponse } from './byte-exact-head-response.ts';
import { hostForHttp10 } from './http10-host.ts';
import {
  answerUnservableRequests,
  refuseUnservableTransferCoding,
  unbuildableRequestAnswer,
} from './unservable-requests.ts';

export interface ApiHttpServerOptions {
  /** Its budget goes in the `RateLimit-*` headers of these answers, which count nothing. */
  rateLimiter: Pick<RateLimiter, 'untouched'>;
  /** Who may read these answers from a page; no CORS header without. */
  cors?: CorsPolicy;
  /** Where the refusals of Node's parser are logged. */
  logger?: Logger;
  /**
   * Answer a client that half-closes after its request (the reference server and `ocs-mock`,
   * which ends a `hang` at the client's end itself), or end the socket at its end (Node's
   * default): `half-closed-clients.ts`.
   */
  answerHalfClosedClients: boolean;
}

export function createApiHttpServer(
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
  options: ApiHttpServerOptions,
): Server {
  const { rateLimiter, cors: policy, logger } = options;
  const untouched = () => rateLimitHeaders(rateLimiter.untouched());
  const cors = policy && ((origin: string | null, path: string) => corsHeaders(policy, origin, path));
  const application = getRequestListener(withHeaderLines(fetch), {
    errorHandler: unbuildableRequestAnswer({ rateLimitHeaders: untouched }),
  });
  const refusals = { rateLimitHeaders: untouched, ...(cors ? { cors } : {}) };
  // Node would answer an HTTP/1.1 request without Host with an empty 400 itself (and an
  // HTTP/1.0 one too): the adapter's error handler answers it (and a target that is not a
  // path) in the API's error body, once an HTTP/1.0 request has been given its host.
  const server = createServer(
    { requireHostHeader: false, ServerResponse: ByteExactHeadResponse },
    (request: IncomingMessage, response: ServerResponse) => {
      if (refuseUnservableTransferCoding(request, response, refusals)) return;
      hostForHttp10(request);
      void application(request, response);
    },
  );
  if (options.answerHalfClosedClients) answerHalfClosedClients(server);
  answerClientErrors(server, { rateLimitHeaders: untouched, ...(logger ? { logger } : {}), ...(cors ? { cors } : {}) });
  answerUnservableRequests(server, refusals);
  return server;
}
