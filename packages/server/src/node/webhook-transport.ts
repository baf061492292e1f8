/**
 * The Node `WebhookTransport`: one POST of the exact signed bytes over `node:http(s)`, with
 * the SSRF guard applied twice per attempt: `checkWebhookUrl` on the URL (scheme,
 * credentials, literal hosts) and `createGuardedLookup` inside every new connection (each
 * resolved address). Only a 2xx within the timeout is `ok`; redirects are never followed.
 *
 * What `allowInsecure` (`services.config.allowInsecureWebhooks`, off by default) allows,
 * exactly: the `http:` scheme, and this machine's loopback (`localhost`, 127.0.0.0/8, ::1
 * and 127.0.0.0/8 IPv4-mapped), an allow-list checked on the address connected to, whether
 * written in the URL or resolved. NAT64 and 6to4 forms that embed 127.0.0.1 are routed
 * elsewhere and stay refused.
 * Private, CGNAT, link-local, unique-local and metadata addresses (169.254.169.254,
 * fd00:ec2::254, ...) stay refused even then: a receiver for local work runs on the
 * developer's own machine, while those ranges are where the damage of SSRF lies (cloud
 * credentials, internal services), and a development flag that leaked into a deployment
 * must not open them.
 *
 * Connections are kept alive (one agent per scheme, per transport) so that a burst of
 * deliveries to one receiver reuses sockets instead of paying a handshake per attempt.
 */
import http from 'node:http';
import https from 'node:https';
import { checkWebhookUrl, type WebhookUrlOptions } from '../domain/webhook-url.ts';
import { whenAborted } from './signal-fan-out.ts';
import { describeFailure, requestFailed, statusVerdict } from '../delivery/attempt-verdict.ts';
import { type AttemptOutcome, type DeliveryRequest, deliveryPolicy, type WebhookTransport } from '../delivery/types.ts';
import {
  createGuardedLookup,
  type ResolveAllAddresses,
  resolveWithSystemDns,
  TargetRefusedError,
} from './connect-guard.ts';

export interface NodeWebhookTransportOptions {
  /** `services.config.allowInsecureWebhooks`: also `http:` and loopback receivers (see above). */
  allowInsecure?: boolean;
  /** The whole attempt: connecting, sending, and the complete response. */
  timeoutMs?: number;
  /** How host names are resolved; the system resolver unless a test injects answers. */
  lookup?: ResolveAllAddresses;
  /** Concurrent connections per receiver (host and port). */
  maxSockets?: number;
}

export type NodeWebhookTransport = WebhookTransport & {
  /** Closes the kept-alive connections; attempts still in flight fail. */
  close(): void;
};

/**
 * A receiver's response body is read and thrown away so the socket can carry the next
 * attempt; past this many bytes the socket is dropped instead, so a receiver that streams
 * without end holds no connection and no memory.
 */
const maxDrainedBytes = 64 * 1024;

const defaultMaxSockets = 64;

/**
 * @example
 * const transport = createNodeWebhookTransport({ allowInsecure: services.config.allowInsecureWebhooks });
 * const outcome = await transport.send({ url, body, headers }); // { ok, status, duration_ms, error }
 * transport.close();
 */
export function createNodeWebhookTransport(options: NodeWebhookTransportOptions = {}): NodeWebhookTransport {
  const urlOptions: WebhookUrlOptions = { allowInsecure: options.allowInsecure === true };
  const timeoutMs = options.timeoutMs ?? deliveryPolicy.timeoutMs;
  // On the agent, not the request: agent options win over request options, so no socket of
  // these agents can be opened without the guard.
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? defaultMaxSockets,
    lookup: createGuardedLookup(options.lookup ?? resolveWithSystemDns, urlOptions),
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  return {
    send(request, sendOptions) {
      const started = performance.now();
      const outcome = (status: number | null, error: string | null, aborted = false): AttemptOutcome => ({
        ok: error === null,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        error,
        ...(aborted ? { aborted } : {}),
      });
      const checked = checkWebhookUrl(request.url, urlOptions);
      if (!checked.ok) return Promise.resolve(outcome(null, `target refused: ${checked.reason}`));
      if (sendOptions?.signal?.aborted) return Promise.resolve(outcome(null, 'aborted', true));
      const url = new URL(checked.url);
      const agent = url.protocol === 'https:' ? agents.https : agents.http;
      return post(url, request, agent, timeoutMs, sendOptions?.signal, outcome);
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** One POST; resolves once, with the first of: complete response, error, timeout, abort. */
function post(
  url: URL,
  request: DeliveryRequest,
  agent: http.Agent,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  outcome: (status: number | null, error: string | null, aborted?: boolean) => AttemptOutcome,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    let stopWaiting: (() => void) | undefined;
    const settle = (status: number | null, error: string | null, aborted = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWaiting?.();
      resolve(outcome(status, error, aborted));
    };
    // Settled before destroying, so the error the destruction emits is ignored.
    const giveUp = (error: string, aborted = false) => {
      settle(null, error, aborted);
      outgoing?.destroy();
    };
    /** The status line, once it came: the receiver's answer, whatever happens to its body. */
    let answered: { status: number | null; verdict: string | null } | undefined;
    // Stopped while the body of an answer still streams: the receiver did answer, so the
    // attempt is what it answered, not an abort (which would send it again for nothing).
    const onAbort = () => {
      if (answered === undefined) giveUp('aborted', true);
      else {
        settle(answered.status, answered.verdict);
        outgoing?.destroy();
      }
    };
    const timer = setTimeout(() => giveUp(`timeout after ${timeoutMs} ms`), timeoutMs);

    const client = url.protocol === 'https:' ? https : http;
    try {
      // Throws at once on headers Node will not send (e.g. a control character in a value).
      outgoing = client.request(
        {
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers: { ...request.headers, 'content-length': String(request.body.byteLength) },
          agent,
        },
        (response) => {
          const status = response.statusCode ?? null;
          const verdict = statusVerdict(status);
          answered = { status, verdict };
          let drained = 0;
          // Settled at the end of the body, not at the status line: the socket is then back in
          // the pool before the caller sends again, and nothing of the attempt outlives it.
          response.on('data', (chunk: Buffer) => {
            drained += chunk.length;
            if (drained > maxDrainedBytes) {
              settle(status, verdict);
              response.destroy();
            }
          });
          response.on('end', () => settle(status, verdict));
          response.on('error', (error) => settle(status, `response interrupted: ${describeFailure(error)}`));
        },
      );
      outgoing.on('error', (error) => {
        settle(null, error instanceof TargetRefusedError ? error.message : requestFailed(error));
      });
    } catch (error) {
      settle(null, requestFailed(error));
      return;
    }
    if (signal) stopWaiting = whenAborted(signal, onAbort);
    outgoing.end(request.body);
  });
}
