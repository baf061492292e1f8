/**
 * `createOcsMock`: MSW handlers for the whole API at a base URL, over the reference
 * server's own application in memory, plus a handle on the mock: its seeded data, `reset()`,
 * scenarios, typed overrides, the sandbox operations and a webhook trigger.
 */
import { getResponse, type HttpHandler, type RequestHandler } from 'msw';
import { createApiKey, rateLimitHeaders, requestIdFor } from '@ocs/server';
import { untilAborted } from './abort.ts';
import { checkApiKeyOptions } from './api-key-options.ts';
import { AppHandler } from './app-handler.ts';
import { createEngine } from './engine.ts';
import { faultOf } from './faults.ts';
import { readOnlyFields } from './frozen.ts';
import { checkMockOptions } from './mock-options.ts';
import type { OcsMockRequests } from './journal/types.ts';
import { operationMatcher } from './operations.ts';
import type { OcsMockOptions } from './options.ts';
import { checkOverrides } from './overrides/check-overrides.ts';
import { type TypedHttp, typedHttp } from './overrides/typed-http.ts';
import { createSandbox, type OcsMockSandbox } from './sandbox.ts';
import type { OcsMockScenarios } from './scenarios.ts';
import type { OcsMockData } from './seed/data.ts';
import { mockWebhooks, type OcsMockWebhooks } from './webhooks/trigger.ts';

export interface OcsMock {
  /**
   * MSW handlers answering every operation under `baseUrl` (and `/openapi.json|yaml` at
   * its origin): `setupServer(...mock.handlers)` or `setupWorker(...mock.handlers)`.
   */
  readonly handlers: HttpHandler[];
  /** The API's base URL, ending in `/v1`: give it to the client (`createClient({ baseUrl })`). */
  readonly baseUrl: string;
  /** The seeded API key, holding every scope. */
  readonly apiKey: string;
  /**
   * What the seed or the fixtures created (IDs, names), as the API answered it: the seeded
   * state `reset()` returns to. Deep-frozen, so that no test changes it for the next one:
   * copy what you want to change (`[...mock.data.leads].sort(...)`, `structuredClone(mock.data)`).
   */
  readonly data: OcsMockData;
  /**
   * Back to the seeded state: the data (messages and deliveries included), the sandbox clock
   * at real time (the `clock` option's), and no scenarios, overrides, idempotency keys or
   * rate-limit counts. Synchronous and fast enough for every `beforeEach`.
   */
  reset(): void;
  /**
   * Overrides answered before the mock's application (latest first), as MSW's `use()`;
   * plain MSW handlers or `mock.http` ones. `reset()` removes them.
   */
  use(...handlers: RequestHandler[]): void;
  /**
   * Every request the mock served under `baseUrl`, typed by operation:
   * `mock.requests.of('createCampaign')`. The last 1,000 (option `journal`); `reset()` clears it.
   */
  readonly requests: OcsMockRequests;
  /** Failures, latency, a low rate-limit budget, the service unavailable, network faults, chaos. */
  readonly scenarios: OcsMockScenarios;
  /** Typed MSW handlers for single operations, for `use()`. */
  readonly http: TypedHttp;
  /**
   * The sandbox operations in process: replies (delivered to the campaign's webhooks before
   * they resolve), engagement, the clock, and what was sent and delivered.
   */
  readonly sandbox: OcsMockSandbox;
  /** Signed `prospect_response` events for testing a receiver. */
  readonly webhooks: OcsMockWebhooks;
  /**
   * The mock without MSW: answers a Fetch `Request` as the handlers do. A connection reset
   * (`networkError`, a `hang` ended by `reset()`) rejects with a `TypeError` as `fetch`
   * does, and an aborted request with its signal's reason: at once, before anything is
   * written if it was aborted before the call (nothing is recorded either) or during added
   * latency; a write the application made before the abort stays made, as on the service.
   * Takes what `fetch` takes. A request no handler answers (outside `baseUrl`) rejects with a
   * `TypeError` as `fetch` does when nothing answers, so that a client given the wrong base
   * URL fails its tests here too.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Another API key of the seeded organization, with only `scopes` (to test `403
   * INSUFFICIENT_SCOPE`) or expired at `expiresAt` (`401 API_KEY_EXPIRED`). `reset()` forgets it.
   *
   * @example
   * const readOnly = await mock.createApiKey({ scopes: ['campaigns:read'] });
   * await createCampaign(createClient({ apiKey: readOnly, baseUrl: mock.baseUrl }), { name: 'x' }); // throws 403
   */
  createApiKey(options?: { scopes?: readonly Scope[]; expiresAt?: Date | string }): Promise<string>;
}

/** The scopes an API key may hold. */
export type Scope =
  | 'leads:read'
  | 'leads:write'
  | 'campaigns:read'
  | 'campaigns:write'
  | 'crm:read'
  | 'crm:write'
  | 'accounts:read'
  | 'accounts:write';

/**
 * Creates a mock of the whole API, seeded from `seed` (or from `fixtures`).
 *
 * @example
 * import { createOcsMock } from '@ocs/mock/node';
 * import { setupServer } from 'msw/node';
 * import { createClient, listCampaigns } from '@ocs/sdk';
 *
 * const mock = await createOcsMock({ seed: 42 });
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: 'error' });
 * beforeEach(() => mock.reset());
 *
 * const client = createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
 * const { campaigns } = await listCampaigns(client);
 */
export async function createOcsMock(options: OcsMockOptions = {}): Promise<OcsMock> {
  checkMockOptions(options, 'createOcsMock');
  const engine = await createEngine(options);
  const { base } = engine;
  const overrides: RequestHandler[] = [];
  engine.intercept({
    active: () => overrides.length > 0,
    // A clone, so that an override that reads the body and steps aside leaves it to the app.
    handle: async (request) => (await getResponse(overrides, request.clone())) ?? undefined,
  });
  engine.onReset(() => {
    overrides.length = 0;
  });
  const answer = ({ request }: { request: Request }) => engine.fetch(request);
  const handlers = [
    new AppHandler(/.+/, `${base.href}/*`, answer),
    new AppHandler('GET', `${base.origin}/openapi.json`, answer),
    new AppHandler('GET', `${base.origin}/openapi.yaml`, answer),
    // The hosted page of connect links, where `POST /accounts/connect-link`'s URLs point.
    new AppHandler(/.+/, `${base.origin}/connect/:token`, answer),
  ];
  // The caller's acceptable X-Request-ID is echoed, as the service does.
  const defaultHeaders = (request: Request) => {
    const policy = engine.policy();
    return {
      'X-Request-ID': requestIdFor(request),
      ...rateLimitHeaders({ limit: policy.perEndpoint, remaining: policy.perEndpoint, reset: 0 }),
    };
  };
  const mock: OcsMock = {
    handlers,
    baseUrl: base.href,
    apiKey: engine.data.apiKey,
    data: engine.data,
    reset: () => engine.reset(),
    use: (...added) => {
      checkOverrides(added);
      overrides.unshift(...added);
    },
    scenarios: engine.scenarios.api,
    http: typedHttp(base, operationMatcher(), defaultHeaders),
    sandbox: createSandbox(engine),
    webhooks: mockWebhooks({
      store: engine.store,
      clock: engine.clock,
      organizationId: engine.data.organization.id,
      campaignIds: () => engine.data.campaigns.map((campaign) => campaign.id),
    }),
    requests: engine.journal.api,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      // As fetch: an aborted signal sends nothing (nothing is written or recorded), and an
      // abort later rejects at once, while a write the application already made stays made.
      request.signal.throwIfAborted();
      if (!handlers.some((handler) => handler.handles(request))) {
        throw new TypeError('fetch failed', {
          cause: new Error(
            `@ocs/mock: nothing answers ${request.method} ${request.url}: the mock answers under ${base.href} (and GET ${base.origin}/openapi.json or /openapi.yaml, and connect links at ${base.origin}/connect/).`,
          ),
        });
      }
      const response = await untilAborted(engine.fetch(request), request.signal);
      if (faultOf(response)?.kind !== 'networkError') return response;
      throw new TypeError('fetch failed', { cause: new Error('@ocs/mock: connection reset (a fault scenario)') });
    },
    async createApiKey(options = {}) {
      checkApiKeyOptions(options);
      const { scopes, expiresAt } = options;
      const { key } = await createApiKey(engine.store, {
        organizationId: engine.data.organization.id,
        name: 'Test key',
        ...(scopes ? { scopes: [...scopes] } : {}),
        ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
        now: engine.clock.now(),
      });
      return key;
    },
  };
  // What describes the mock is not the test's to change (`mock.apiKey = ...` throws); the
  // methods stay writable, so that a test may spy on them.
  return readOnlyFields(
    mock,
    'handlers',
    'baseUrl',
    'apiKey',
    'data',
    'requests',
    'scenarios',
    'http',
    'sandbox',
    'webhooks',
  );
}
