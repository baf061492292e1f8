/**
 * The standalone mock's faults are real socket faults, not simulated answers: a connection
 * reset is a TCP reset (`socket.resetAndDestroy()`: the client reads ECONNRESET), and a cut
 * body is the status line, the headers (with the whole body's `Content-Length`) and part of
 * the body written, then the socket destroyed (the client's read ends early). A `hang`
 * writes nothing until its client gives up (`clientGone`); a reset or `close()` then resets it.
 *
 * @hono/node-server hands the fetch handler the request's Node objects (`env.incoming`,
 * `env.outgoing`); they are remembered by Request here, so that the fault is acted out on
 * the right socket, and @hono/node-server is told the answer was sent already.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Fault, faultOf } from '../core/faults.ts';
import { headerRecord } from '../core/header-record.ts';
import { recordHeaderLines } from '../core/journal/journal.ts';

type Connection = HttpBindings;

type Handler = (request: Request) => Promise<Response>;

/**
 * Where a request keeps its Node objects: a property of the request, not a WeakMap. A WeakMap
 * holding every request for its short life makes each scavenge walk its table (an
 * ephemeron table in the old generation pointing at young keys), which cost more than the
 * journal's own work per request.
 */
const connectionKey = Symbol('ocs-mock.connection');

type RememberingRequest = Request & { [connectionKey]?: Connection };

/**
 * The listener's fetch: each request's Node objects remembered for `faultsOnSocket`, and its
 * header lines for the journal (which lists them only when an entry is read: journal.ts).
 */
export function rememberingConnections(handler: Handler) {
  return (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    // The mock listens with HTTP/1.1 (`serve` without `createServer`), never HTTP/2.
    if ('headersDistinct' in env.incoming) {
      (request as RememberingRequest)[connectionKey] = env as HttpBindings;
      recordHeaderLines(request, env.incoming.rawHeaders);
    }
    return handler(request);
  };
}

/** Acts out the engine's faults on the request's socket; every other answer passes. */
export function faultsOnSocket(handler: Handler): Handler {
  return async (request) => {
    const response = await handler(request);
    const fault = faultOf(response);
    const connection = (request as RememberingRequest)[connectionKey];
    if (!fault || !connection) return response;
    if (fault.kind === 'networkError') reset(connection);
    else cutOff(connection, response, fault);
    return RESPONSE_ALREADY_SENT;
  };
}

function reset({ incoming }: Connection): void {
  const { socket } = incoming;
  if (!socket.destroyed) socket.resetAndDestroy();
}

/** The status, the headers and the first `sent` bytes, then the connection closed. */
function cutOff({ incoming, outgoing }: Connection, response: Response, fault: Extract<Fault, { kind: 'truncate' }>) {
  const { socket } = incoming;
  if (socket.destroyed) return;
  outgoing.writeHead(response.status, headerRecord(response.headers));
  // Once the part is flushed to the socket, so that the client receives it before the close.
  outgoing.write(fault.body.subarray(0, fault.sent), () => socket.destroy());
}

/**
 * Aborts once the request's client has left, for a `hang` to end. The listener answers a
 * client that half-closes after its request (`answerHalfClosedClients`, as the reference
 * server does), so a client that leaves no longer has its socket closed at once: its FIN is
 * the socket's 'end', which the request's own signal does not see. A half-closing client
 * sends the same FIN, and a hang answers neither, so it ends at either; latency and every
 * other answer still go to a half-closed client. A socket that closes (a reset, `close()`)
 * aborts the request's signal, as before.
 */
export function clientGone(request: Request): AbortSignal {
  const connection = (request as RememberingRequest)[connectionKey];
  if (!connection) return request.signal;
  const { socket } = connection.incoming;
  // Sent with the request, its FIN was read before the hang began.
  if (socket.readableEnded) return AbortSignal.abort();
  const ended = new AbortController();
  // Once: the hang's end resets the socket, so the listener goes with it.
  socket.once('end', () => ended.abort());
  return AbortSignal.any([request.signal, ended.signal]);
}
