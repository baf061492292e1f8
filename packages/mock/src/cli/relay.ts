/**
 * The loopback receiver `ocs listen` registers on the server: it checks each delivery's
 * `X-Signature-256` with the session secret (the SDK's verifier), forwards the same bytes
 * and signature to the developer's receiver, and answers the server with the receiver's
 * status, so that a failing receiver is retried exactly as a real one would be.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '@ocs/sdk/webhooks';
import { setHeader } from '../core/header-record.ts';
import { receiverDeadlineMs } from './receiver-deadline.ts';

export interface Forwarded {
  at: Date;
  event: string;
  /** The payload's `sequence_lead_id` (the event names the lead by it) and the lead's email. */
  sequenceLeadId: string;
  leadEmail: string | null;
  attempt: string | null;
  /** The receiver's status, or null when it could not be reached (`error` says why). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface Relay {
  /** What is registered on the server: loopback, with an unguessable path. */
  url: string;
  /**
   * From now on the relay says it is stopping, though it still forwards: its listen is giving
   * its slots back, so another listen stopping at the same moment follows the chain past it
   * rather than hand it the slot, and one starting leaves its webhook alone (slot-lease.ts).
   */
  stopAnswering(): void;
  /**
   * The deliveries being forwarded now (the server waits for their answer), and how long the
   * last of them may still take: each is cut off at the receiver's deadline.
   */
  inFlight(): { count: number; settledWithinMs: number };
  /** Stops once every request under way is answered (a delivery may take its receiver's deadline). */
  close(): Promise<void>;
}

/**
 * What a relay answers to `HEAD` on its own path: a running `ocs listen` says it is there
 * (`relay`), or that it is giving its slots back (`relay-stopping`), so that the next one
 * tells a live relay from a dead one's (slot-lease.ts).
 */
const aliveHeader = 'x-ocs-listen';

/**
 * The start of every relay's path: the marker by which `listen` knows its own webhooks on the
 * server, to reuse them (slot-lease.ts). Never change it: the webhooks of earlier versions
 * carry it.
 */
export const relayPathPrefix = '/ocs-listen/';

/** The largest delivery read: the service's events are a few kilobytes. */
const maxDeliveryBytes = 1024 * 1024;

/** The request's body, or null past `maxDeliveryBytes` (announced, or counted while read). */
async function readLimited(request: IncomingMessage): Promise<Buffer | null> {
  if (Number(request.headers['content-length']) > maxDeliveryBytes) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxDeliveryBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Headers of a delivery passed on to the receiver as they came. */
const passedOn = ['content-type', 'x-signature-256', 'user-agent'];

export async function startRelay(options: {
  secret: string;
  forwardTo: string;
  onForwarded(delivery: Forwarded): void;
  onRefused(reason: string): void;
}): Promise<Relay> {
  const path = `${relayPathPrefix}${randomBytes(9).toString('base64url')}`;
  const inFlight = new Set<Promise<void>>();
  /** When each delivery being forwarded now started (by performance.now()). */
  const forwarding = new Set<{ started: number }>();
  const server = createServer((request, response) => {
    const handled = handle(request, response).catch((error: unknown) => {
      options.onRefused(`relay error: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled));
  });

  let stopping = false;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // The query names what the registration displaced (slot-lease.ts), not where to deliver.
    const own = new URL(request.url ?? '/', 'http://relay.invalid').pathname === path;
    if (own && request.method === 'HEAD') {
      response.writeHead(204, { [aliveHeader]: stopping ? 'relay-stopping' : 'relay' }).end();
      return;
    }
    // Refused before a byte of the body is read: any process on this machine can call the
    // relay, and reading what it sends to another path, or unsigned, or without end, would
    // hold memory and the exit (the connection is closed with the answer).
    const signature = request.headers['x-signature-256'];
    if (request.method !== 'POST' || !own || !signature) {
      response.writeHead(request.method === 'POST' && own ? 401 : 404, { connection: 'close' }).end();
      return;
    }
    const body = await readLimited(request);
    if (!body) {
      options.onRefused(`refused a delivery of more than ${maxDeliveryBytes} bytes`);
      response.writeHead(413, { connection: 'close' }).end();
      return;
    }
    if (!(await verifySignature({ payload: body, signature, secret: options.secret }))) {
      options.onRefused('refused a delivery whose X-Signature-256 does not match the session secret');
      response.writeHead(401).end();
      return;
    }
    const event = parse(body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && (passedOn.includes(name) || name.startsWith('x-ocs-')))
        setHeader(headers, name, value);
    }
    const started = performance.now();
    const forward = { started };
    forwarding.add(forward);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const answer = await fetch(options.forwardTo, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(receiverDeadlineMs), // the service's own limit
      });
      status = answer.status;
      await answer.body?.cancel();
    } catch (caught) {
      error = fetchProblem(caught);
    } finally {
      forwarding.delete(forward);
    }
    options.onForwarded({
      at: new Date(),
      event: event.event,
      sequenceLeadId: event.sequence_lead_id,
      leadEmail: event.lead_email,
      attempt:
        typeof request.headers['x-ocs-delivery-attempt'] === 'string'
          ? request.headers['x-ocs-delivery-attempt']
          : null,
      status,
      error,
      durationMs: performance.now() - started,
    });
    // The server sees what the receiver said; an unreachable receiver is a gateway failure.
    response.writeHead(status ?? 502).end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stopAnswering() {
      stopping = true;
    },
    inFlight() {
      const now = performance.now();
      let settledWithinMs = 0;
      for (const { started } of forwarding) {
        settledWithinMs = Math.max(settledWithinMs, started + receiverDeadlineMs - now);
      }
      return { count: forwarding.size, settledWithinMs };
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The state of the relay of `ocs listen` at `url`: `alive` (its listen runs), `stopping` (its
 * listen is giving its slots back), or `gone`. A running one answers at once; refused, no
 * answer within a second, or an answer without the relay's header (another program on a
 * reused port): gone.
 */
export async function relayState(url: string): Promise<'alive' | 'stopping' | 'gone'> {
  try {
    const answer = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(1000) });
    const said = answer.headers.get(aliveHeader);
    return said === 'relay' ? 'alive' : said === 'relay-stopping' ? 'stopping' : 'gone';
  } catch {
    return 'gone';
  }
}

/** What a line needs from the event; a body that is not the event still gets forwarded. */
function parse(body: Buffer): { event: string; sequence_lead_id: string; lead_email: string | null } {
  try {
    const event = JSON.parse(body.toString('utf8')) as {
      event?: unknown;
      sequence_lead_id?: unknown;
      lead?: { email?: unknown };
    };
    return {
      event: typeof event.event === 'string' ? event.event : 'unknown',
      sequence_lead_id: typeof event.sequence_lead_id === 'string' ? event.sequence_lead_id : '-',
      lead_email: typeof event.lead?.email === 'string' ? event.lead.email : null,
    };
  } catch {
    return { event: 'unparsable', sequence_lead_id: '-', lead_email: null };
  }
}

/** Why fetch failed, in a few words: the system's code (ECONNREFUSED...), else its message. */
function fetchProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
