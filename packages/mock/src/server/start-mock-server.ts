/**
 * The standalone mock: the same engine as `createOcsMock` (the reference server's
 * application, seeded, in memory) listening on HTTP, for integrations not written in
 * JavaScript and for tools that need a real socket. `npx ocs-mock` runs it.
 *
 * A page on any origin may call `/v1` by default (CORS, the reference server's own wrapper,
 * around every answer, scenarios' included); the control routes never answer a browser on
 * another origin.
 */
import type { AddressInfo } from 'node:net';
import { cors, parseCorsOrigins, withDocs } from '@ocs/server';
import { createApiHttpServer } from '@ocs/server/http-server';
import { createEngine } from '../core/engine.ts';
import { readOnlyFields } from '../core/frozen.ts';
import { listenAddress } from '../core/listen-address.ts';
import { checkMockOptions, mockOptionNames } from '../core/mock-options.ts';
import type { OcsMockOptions } from '../core/options.ts';
import { createSandbox, type OcsMockSandbox } from '../core/sandbox.ts';
import type { OcsMockScenarios } from '../core/scenarios.ts';
import type { OcsMockData } from '../core/seed/data.ts';
import { mockWebhooks, type OcsMockWebhooks } from '../core/webhooks/trigger.ts';
import type { OcsMockRequests } from '../core/journal/types.ts';
import { controlPath, controlRoutes } from './control.ts';
import { controlRefusal, isControlRequest } from './control-guard.ts';
import { mockDocs } from './docs.ts';
import { headAnswersWithoutBody } from './head-answers.ts';
import { clientGone, faultsOnSocket, rememberingConnections } from './socket-faults.ts';

export interface MockServerOptions extends Omit<OcsMockOptions, 'baseUrl'> {
  /** Port to listen on; 0 picks a free one. Default 4011 (the SDK's default base URL). */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /**
   * Origins whose pages may call `/v1` from a browser: `'*'` (the default) for any, or exact
   * origins such as `'http://localhost:5173'`; `[]` for none. Checked as `--cors-origin` is:
   * `'*'` among named origins, or a value that is not an origin, is a `TypeError`.
   */
  corsOrigins?: '*' | readonly string[];
}

/**
 * `corsOrigins` read as the CLI's `--cors-origin` is (the reference server's own parser):
 * without the check, `['*', 'http://localhost:5173']` allowed the named origin only and
 * `'localhost:5173'` (no scheme) never matched a page, both silently.
 */
function corsOriginsOf(given: MockServerOptions['corsOrigins']): '*' | string[] {
  if (given === undefined || given === '*') return '*';
  try {
    // One origin given as a string (from JavaScript) is read as a list of one.
    return parseCorsOrigins(typeof given === 'string' ? [given] : given);
  } catch (error) {
    throw new TypeError(`@ocs/mock: corsOrigins: ${(error as Error).message}`, { cause: error });
  }
}

/** What `startMockServer` takes: `createOcsMock`'s options but the base URL, and where to listen. */
const serverOptionNames = [...mockOptionNames.filter((name) => name !== 'baseUrl'), 'port', 'host', 'corsOrigins'];

/** The standalone mock's default port: the reference server has 4010, Prism 4012 (docs/decisions/0008-ports-and-names.md). */
export const defaultMockPort = 4011;

export interface MockServer {
  /** The API's base URL, ending in `/v1`. */
  readonly url: string;
  /** The seeded API key, holding every scope. */
  readonly apiKey: string;
  /** The seeded data (`mock.data`), deep-frozen: copy what you want to change. */
  readonly data: OcsMockData;
  /** Back to the seeded state (also `POST /__ocs-mock/reset`). */
  reset(): void;
  /** The request journal (also `GET /__ocs-mock/requests`). */
  requests: OcsMockRequests;
  /** Scenarios; the faults are real socket faults here (a TCP reset, a body cut off). */
  scenarios: OcsMockScenarios;
  /** The sandbox operations in process (they are also served at `/v1/sandbox/...`). */
  sandbox: OcsMockSandbox;
  webhooks: OcsMockWebhooks;
  close(): Promise<void>;
}

/**
 * Starts the standalone mock and resolves once it listens.
 *
 * @example
 * import { startMockServer } from '@ocs/mock/node';
 *
 * const server = await startMockServer({ port: 0, seed: 7 });
 * const response = await fetch(`${server.url}/campaigns`, {
 *   headers: { Authorization: `Bearer ${server.apiKey}` },
 * });
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  checkMockOptions(options, 'startMockServer', serverOptionNames);
  const corsPolicy = { origins: corsOriginsOf(options.corsOrigins) };
  // The rule `startPrism` and the command-line tools' --port and --host follow too.
  const { port, host, origin } = listenAddress(options.port, options.host, defaultMockPort);
  // The engine reads only the path of its base URL here; the listener gives the origin. A
  // `hang` ends when its client leaves: its socket closes, or the client ends its side.
  const engine = await createEngine({ ...options, baseUrl: `${origin}/v1` }, { clientGone });
  const control = controlRoutes(engine);
  // Faults outside CORS, so that a cut-off answer carries the CORS headers a page needs to see it.
  const api = faultsOnSocket(cors(corsPolicy)((request) => engine.fetch(request)));
  // `/docs` (the API reference page, when Redoc is installed) answers before the rest.
  const fetch = withDocs(mockDocs())((request: Request) => {
    if (!isControlRequest(request, controlPath)) return api(request);
    // The control routes are for test suites, not pages (control-guard.ts): refused before
    // they reset or read anything.
    const refusal = controlRefusal(request);
    if (refusal !== null) return Promise.resolve(refused(refusal));
    return control(request);
  });
  return new Promise((resolve, reject) => {
    // The reference server's listener: header lines recorded (a header the API reads once that
    // came twice is refused, not joined), and what Node's parser refuses or would answer bare
    // (431, malformed HTTP, Expect, CONNECT) answered in the API's error body; and HEAD
    // answered without a length, as the reference server answers it (head-answers.ts).
    const server = createApiHttpServer(headAnswersWithoutBody(rememberingConnections(fetch)), {
      // A client that half-closes after its request is answered, as by the reference server
      // (under `latency` too); a `hang` still ends at the client's end (`clientGone`).
      answerHalfClosedClients: true,
      rateLimiter: engine.app.rateLimiter,
      cors: corsPolicy,
    });
    server.listen(port, host, () => {
      const info = server.address() as AddressInfo;
      const mockServer: MockServer = {
        url: `${origin}:${info.port}/v1`,
        apiKey: engine.data.apiKey,
        data: engine.data,
        reset: () => engine.reset(),
        requests: engine.journal.api,
        scenarios: engine.scenarios.api,
        sandbox: createSandbox(engine),
        webhooks: mockWebhooks({
          store: engine.store,
          clock: engine.clock,
          organizationId: engine.data.organization.id,
          campaignIds: () => engine.data.campaigns.map((campaign) => campaign.id),
        }),
        close: () =>
          new Promise<void>((done, fail) => {
            // A request left hanging would hold its connection, and the close, forever.
            engine.releaseHangs();
            server.close((error) => (error ? fail(error) : done()));
            // A mock has nothing to drain: keep-alive clients must not hold the close up.
            server.closeAllConnections();
          }),
      };
      resolve(readOnlyFields(mockServer, 'url', 'apiKey', 'data'));
    });
    server.once('error', reject);
  });
}

function refused(reason: string): Response {
  return new Response(JSON.stringify({ error: reason }), {
    status: 403,
    headers: { 'Content-Type': 'application/json' },
  });
}
