/**
 * An HTTP/1.0 request without `Host` is served. RFC 9112 section 3.2 requires `Host` of
 * HTTP/1.1 requests only (HTTP/1.0 has no such header), yet the Hono adapter cannot build a
 * request's URL without one and answered `400`. Such a request is taken to name the address
 * and port it reached (`127.0.0.1:4010`), which is where its client can reach the server
 * again: the origin the service writes into absolute URLs (a connect link's `url`). An
 * HTTP/1.1 request without `Host` is still refused (`unservable-requests.ts`).
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** Gives an HTTP/1.0 request without `Host` the address it reached as its host. */
export function hostForHttp10(request: IncomingMessage): void {
  if (request.httpVersion !== '1.0' || request.headers.host !== undefined) return;
  const { localAddress, localPort } = request.socket;
  if (localAddress === undefined || localPort === undefined) return;
  // An IPv4 client of a dual-stack listener arrives on an IPv4-mapped address (`::ffff:127.0.0.1`).
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  request.headers.host = `${isIPv6(address) ? `[${address}]` : address}:${localPort}`;
}
