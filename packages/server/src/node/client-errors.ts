/**
 * Requests Node's HTTP parser refuses before the application sees them (a request line and
 * headers over `maxHeaderSize`, malformed HTTP) answer in the API's error body with an
 * `X-Request-ID`, instead of Node's bare `431` or `400` with an empty body: the server's
 * `clientError` event writes a complete response whenever the socket can still take one,
 * then closes the connection (docs/decisions/0005-bad-input.md).
 *
 * - `HPE_HEADER_OVERFLOW`: `431 REQUEST_HEADERS_TOO_LARGE`.
 * - `HPE_CHUNK_EXTENSIONS_OVERFLOW`: `413 PAYLOAD_TOO_LARGE`.
 * - A request that timed out: Node's own bare `408`, as without this handler.
 * - Any other parse error: `400 VALIDATION_ERROR` with one issue of type `malformed_http`.
 * - Bytes pipelined behind a request still being answered are refused only once that answer
 *   is written whole: the earlier request may have written (a create), and its client must
 *   learn it did.
 *
 * The request is never counted against a rate limit, so `RateLimit-*` show the untouched
 * budget. When the request line can be read and names a deprecated operation, the answer
 * carries `Deprecation` and a `Link` to the successor's path template (never a value the
 * caller sent). The caller's `X-Request-ID` is used when it can be read and is acceptable.
 * With CORS on, an answer under `/v1` carries the CORS headers for the `Origin` read from the
 * refused bytes, so that a page can read why (a browser can send headers too large).
 */
import { maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, validationError } from '../http/api-error.ts';
import { deprecationHeaders } from '../http/deprecation.ts';
import type { Logger } from '../http/logger.ts';
import { requestIdFrom } from '../http/request-id.ts';
import { errorBody } from '../http/responses.ts';
import { type OperationInfo, operationTable } from '../openapi/document.ts';

export interface ClientErrorOptions {
  /** The `RateLimit-*` headers of a request that was not counted. */
  rateLimitHeaders: () => Record<string, string>;
  logger?: Logger;
  /** The CORS headers for a request from `origin` to `path` (`http/middleware/cors.ts`); none without. */
  cors?: (origin: string | null, path: string) => Record<string, string>;
}

type ClientError = Error & { code?: string; rawPacket?: Buffer };

const reasons: Record<number, string> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/** Node's answer to a request that timed out, kept as it is (the document has no 408). */
const requestTimeout = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

export function answerClientErrors(server: Server, options: ClientErrorOptions): void {
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end(requestTimeout, () => socket.destroy());
      return;
    }
    const response = currentResponse(socket);
    const current = response && !response.writableFinished ? response : undefined;
    if (current && !current.req?.complete) {
      // The refused bytes are the current request's own (its body cut off, or its chunks
      // malformed): refused at once, so that its handler, waiting for the body, ends too;
      // or, once its answer has begun, the connection is closed under it.
      if (current.headersSent) socket.destroy();
      else refuse(error, socket, false);
      return;
    }
    // A request pipelined before the refused one, received whole, is still being answered:
    // its answer goes first, whole, then the refusal. Closing now would lose the answer of a
    // request whose writes may commit (a create its client would then send again).
    const earlier = current;
    if (earlier) {
      let answered = false;
      const answerAfter = () => {
        if (answered) return;
        answered = true;
        if (!socket.writable) socket.destroy();
        else refuse(error, socket, true);
      };
      earlier.once('finish', answerAfter);
      earlier.once('close', answerAfter);
      return;
    }
    refuse(error, socket, false);
  });

  /**
   * Writes the refusal and closes. After a pipelined request (`pipelined`), the refused
   * packet's bytes begin with that request's, so nothing is read from them: its request line
   * would be the earlier request's.
   */
  function refuse(error: ClientError, socket: Duplex, pipelined: boolean): void {
    const head = pipelined ? { requestId: null, origin: null } : readHead(error.rawPacket);
    const requestId = requestIdFrom(head.requestId);
    const failure = errorBody(apiErrorFor(error), requestId);
    const operation = head.method && head.path ? findOperation(head.method, head.path) : undefined;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(failure.body)),
      'X-Request-ID': requestId,
      ...options.rateLimitHeaders(),
      ...deprecationOf(operation),
      ...(options.cors && head.path ? options.cors(head.origin, head.path) : {}),
      Connection: 'close',
    };
    writeRawAnswer(socket, failure.status, headers, failure.body);
    options.logger?.log({
      level: 'info',
      message: 'request refused by the HTTP parser',
      request_id: requestId,
      status: failure.status,
      code: error.code ?? null,
      operation_id: operation?.operationId ?? null,
    });
  }
}

function apiErrorFor(error: ClientError): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(
      431,
      'REQUEST_HEADERS_TOO_LARGE',
      `Request line and headers exceed the ${maxHeaderSize} bytes the server accepts.`,
    );
  }
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request chunk extensions exceed the size the server accepts.');
  }
  const reason = /^HPE_[A-Z_]+$/.test(error.code ?? '') ? ` (${error.code})` : '';
  return malformedHttp(`is not valid HTTP/1.1${reason}`);
}

/** `400 VALIDATION_ERROR` with one issue of type `malformed_http` saying what is wrong with the request. */
export function malformedHttp(problem: string): ApiError {
  return validationError([{ field: 'request', message: problem, type: 'malformed_http' }], `Request ${problem}.`);
}

/**
 * A complete HTTP/1.1 answer written on a socket no response object owns, then the connection
 * closed. The head is written as latin1, a byte per character, as Node writes headers
 * (`byte-exact-head-response.ts`); the body as UTF-8.
 */
export function writeRawAnswer(socket: Duplex, status: number, headers: Record<string, string>, body: string): void {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const head = Buffer.from(`HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\n${lines.join('')}\r\n`, 'latin1');
  socket.end(Buffer.concat([head, Buffer.from(body, 'utf8')]), () => socket.destroy());
}

type InFlight = Pick<ServerResponse, 'once' | 'headersSent' | 'writableFinished'> & {
  req?: { complete?: boolean };
};

/** The response Node is writing on this connection (the request being answered), if any. */
const currentResponse = (socket: Duplex) => (socket as Duplex & { _httpMessage?: InFlight })._httpMessage;

/** What can be read of the request from the bytes the parser refused: request line, X-Request-ID and Origin. */
function readHead(raw: Buffer | undefined): {
  method?: string;
  path?: string;
  requestId: string | null;
  origin: string | null;
} {
  if (!raw) return { requestId: null, origin: null };
  // Only the head matters; an overflowing one is at most a few tens of kilobytes.
  const text = raw.subarray(0, 128 * 1024).toString('latin1');
  const line = /^([A-Z]{3,7}) (\/[^\s?#]*)(?:\?\S*)? HTTP\/1\.[01]\r?\n/.exec(text);
  const requestId = /\r?\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r?\n/i.exec(text)?.[1] ?? null;
  // Only a complete Origin line counts (one cut off by the overflow is no origin).
  const origin = /\r?\norigin:[ \t]*([^\r\n]*?)[ \t]*\r?\n/i.exec(text)?.[1] ?? null;
  return { method: line?.[1], path: line?.[2], requestId, origin };
}

/** Static segments first, as in the application's router. */
const routes = [...operationTable]
  .map((operation) => ({
    operation,
    pattern: new RegExp(`^/v1${operation.path.replaceAll(/\{\w+\}/g, '[^/]+')}$`),
    params: (operation.path.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

function findOperation(method: string, path: string): OperationInfo | undefined {
  return routes.find((route) => route.operation.method === method && route.pattern.test(path))?.operation;
}

/**
 * `Deprecation` and a `Link` to the successor's path template when `method` and `path` name a
 * deprecated operation (section 9), for answers given before the application sees the request.
 */
export function listenerDeprecationHeaders(method: string, path: string): Record<string, string> {
  return deprecationOf(findOperation(method, path));
}

/** `Deprecation` and the successor's `Link` when `operation` is deprecated; nothing otherwise. */
function deprecationOf(operation: OperationInfo | undefined): Record<string, string> {
  return operation?.deprecated ? deprecationHeaders(operation, {}, {}) : {};
}
