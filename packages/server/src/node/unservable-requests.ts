/**
 * Requests that parse as HTTP but that neither Node nor the Hono adapter would hand to the
 * application, answered in the API's error body with an `X-Request-ID` (issue 10) instead
 * of an empty `400`, a bare `417` or a closed connection:
 *
 * - an HTTP/1.1 request without `Host` (RFC 9112 asks for a 400), or whose target is not a
 *   path (`OPTIONS *`, `GET example.com`): the adapter cannot build its URL (an HTTP/1.0
 *   request without `Host` is served: `http10-host.ts`);
 * - `Expect` with anything but `100-continue`;
 * - a transfer coding other than `chunked` (`transfer-codings.ts`), which Node would hand to
 *   the application still encoded;
 * - `CONNECT` (this server is no proxy).
 *
 * Each is `400 VALIDATION_ERROR` with one issue of type `malformed_http`, as for requests
 * Node's parser refuses (`client-errors.ts`), and the connection closes after an `Expect`, a
 * transfer coding or a CONNECT. With CORS on, the answer to an `Expect` or a transfer coding
 * under `/v1` carries the CORS headers, and one naming a deprecated operation `Deprecation`
 * and a `Link`; the other two are requests no browser page can make, so they carry none.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestIdFrom } from '../http/request-id.ts';
import { errorBody } from '../http/responses.ts';
import { listenerDeprecationHeaders, malformedHttp, writeRawAnswer } from './client-errors.ts';
import { transferCodingProblem } from './transfer-codings.ts';

export interface UnservableOptions {
  /** The `RateLimit-*` headers of a request that was not counted. */
  rateLimitHeaders: () => Record<string, string>;
  /** The CORS headers for a request from `origin` to `path` (`http/middleware/cors.ts`); none without. */
  cors?: (origin: string | null, path: string) => Record<string, string>;
}

/** The answer for a request whose URL the adapter could not build (its `errorHandler`). */
export function unbuildableRequestAnswer(options: UnservableOptions): (error: unknown) => Response {
  return (error) => {
    const reason = error instanceof Error ? error.message : 'the request cannot be read';
    const requestId = requestIdFrom(null);
    const failure = errorBody(
      malformedHttp(`cannot be read (${reason}): send a path target and a Host header`),
      requestId,
    );
    return new Response(failure.body, {
      status: failure.status,
      headers: { 'Content-Type': 'application/json', 'X-Request-ID': requestId, ...options.rateLimitHeaders() },
    });
  };
}

export function answerUnservableRequests(server: Server, options: UnservableOptions): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = headerOf(request, 'expect');
    refuseParsedRequest(
      request,
      response,
      `asks for Expect: ${expectation}, and only 100-continue is supported`,
      options,
    );
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = requestIdFrom(headerOf(request, 'x-request-id'));
    const failure = errorBody(
      malformedHttp('uses CONNECT, which this server does not serve (it is no proxy)'),
      requestId,
    );
    writeRawAnswer(
      socket,
      failure.status,
      {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(failure.body)),
        'X-Request-ID': requestId,
        ...options.rateLimitHeaders(),
        Connection: 'close',
      },
      failure.body,
    );
  });
}

/**
 * Refuses a request whose transfer codings the server cannot decode (`transfer-codings.ts`)
 * before the application reads its body: true when it did.
 */
export function refuseUnservableTransferCoding(
  request: IncomingMessage,
  response: ServerResponse,
  options: UnservableOptions,
): boolean {
  const problem = transferCodingProblem(request);
  if (problem === null) return false;
  refuseParsedRequest(request, response, problem, options);
  return true;
}

/**
 * Answers a request Node parsed and the application is not to see (its body unread):
 * `400 VALIDATION_ERROR` with a `malformed_http` issue saying `problem`, then the connection
 * closed.
 */
function refuseParsedRequest(
  request: IncomingMessage,
  response: ServerResponse,
  problem: string,
  options: UnservableOptions,
): void {
  const requestId = requestIdFrom(headerOf(request, 'x-request-id'));
  const failure = errorBody(malformedHttp(problem), requestId);
  const path = pathOf(request);
  response.writeHead(failure.status, {
    'Content-Type': 'application/json',
    'X-Request-ID': requestId,
    ...options.rateLimitHeaders(),
    ...listenerDeprecationHeaders(request.method ?? '', path),
    ...(options.cors ? options.cors(headerOf(request, 'origin'), path) : {}),
    Connection: 'close',
  });
  response.end(failure.body);
}

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').replace(/[?#].*$/, '');
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}
