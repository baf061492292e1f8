/**
 * The mock's engine: the reference server's application on its memory store, seeded, with a
 * snapshot for `reset()`, the scenarios in front, and hooks where the MSW layer adds its
 * overrides. The MSW entries and the standalone server both run requests through `fetch`.
 *
 * The application runs in sandbox mode: its clock is a `SandboxClock` over the mock's
 * `clock` option, which the sandbox operations advance and `reset()` puts back. No engine
 * loop runs in the background (a test must not leave timers behind): the clock advance runs
 * what comes due, and a simulated reply's delivery is attempted before its answer returns,
 * as a running service attempts it at once.
 */
import {
  type App,
  createApp,
  createFetchTransport,
  createMemoryStore,
  type MemoryStore,
  type RateLimitPolicy,
  SandboxClock,
} from '@ocs/server';
import { type BaseUrl, parseBaseUrl } from './base-url.ts';
import { operationMatcher } from './operations.ts';
import type { Clock, OcsMockOptions } from './options.ts';
import { rateLimitControl } from './rate-limits.ts';
import { type ScenarioEngine, scenarioEngine } from './scenarios.ts';
import { seed } from './seed/index.ts';
import type { OcsMockData } from './seed/data.ts';

/** A layer that may answer a request before the application (undefined lets it through). */
export interface Interceptor {
  /** Whether it has anything to do (the fast path skips it otherwise). */
  active(): boolean;
  handle(request: Request): Promise<Response | undefined>;
}

export interface Engine {
  readonly app: App;
  readonly store: MemoryStore;
  /** The application's sandbox clock (over the `clock` option): what every time is read from. */
  readonly clock: SandboxClock;
  readonly base: BaseUrl;
  readonly data: OcsMockData;
  /** The key `mock.sandbox` calls the application with; rate limits do not count it. */
  readonly sandboxApiKey: string;
  readonly scenarios: ScenarioEngine;
  /** The rate-limit policy in force (scenarios may have lowered it). */
  policy(): RateLimitPolicy;
  /** Runs a request through scenarios, interceptors and the application. */
  fetch(request: Request): Promise<Response>;
  /** Attempts every `prospect_response` delivery due now (the engine's delivery worker). */
  deliverDue(): Promise<number>;
  /** Adds a layer between the scenarios and the application (the MSW overrides). */
  intercept(interceptor: Interceptor): void;
  /** Runs on every `reset()`, after the store is restored. */
  onReset(listener: () => void): void;
  reset(): void;
}

const systemClock: Clock = { now: () => new Date() };

export async function createEngine(options: OcsMockOptions = {}): Promise<Engine> {
  const base = parseBaseUrl(options.baseUrl);
  const clock = options.clock ?? systemClock;
  const store = createMemoryStore();
  const limits = rateLimitControl();
  const app = createApp({
    store,
    clock,
    rateLimits: definedOnly(options.rateLimits),
    rateLimitCounters: limits.counters,
    config: { sandbox: true, allowInsecureWebhooks: options.allowInsecureWebhooks ?? false },
    // No API operation revokes keys, so a looked-up key stays valid; reset() forgets it.
    authCacheTtlMs: 60_000,
    // The global fetch at call time: a receiver mocked with MSW (in Node or the page) gets the events.
    webhookTransport: createFetchTransport(),
  });
  limits.attach(app.rateLimiter.policy);
  const sandboxClock = app.services.clock;
  // createApp wraps the given clock in sandbox mode; anything else is a server change.
  if (!(sandboxClock instanceof SandboxClock)) throw new Error('@ocs/mock: the application has no sandbox clock.');
  const { data, sandboxKey } = await limits.unlimited(() =>
    seed(app, store, {
      seed: options.seed ?? 1,
      fixtures: options.fixtures,
      origin: base.origin,
      clock: sandboxClock,
    }),
  );
  limits.exempt(sandboxKey.id);
  const snapshot = store.snapshot();
  const scenarios = scenarioEngine({
    policy: () => app.rateLimiter.policy,
    setBudget: limits.setBudget,
    reset: limits.reset,
  });
  const match = operationMatcher();
  const interceptors: Interceptor[] = [];
  const resetListeners: Array<() => void> = [];
  // The application serves `/v1` at its origin; a base URL with another prefix is mapped.
  const direct = base.path === '/v1';

  const deliverDue = () => app.engine.deliveries.runDue();

  /** The application's answer; a simulated reply's delivery is attempted before it returns. */
  async function answer(request: Request): Promise<Response> {
    const response = await app.fetch(request);
    if (response.status === 201 && request.method === 'POST' && isSimulatedReply(request.url)) await deliverDue();
    return response;
  }

  async function fetch(request: Request): Promise<Response> {
    const intercepting = interceptors.filter((interceptor) => interceptor.active());
    if (direct && intercepting.length === 0 && !scenarios.active()) return answer(request);
    const url = new URL(request.url);
    const apiPath = url.pathname.startsWith(`${base.path}/`) ? url.pathname.slice(base.path.length) : undefined;
    if (apiPath !== undefined && scenarios.active()) {
      const answer = await scenarios.apply(request, match(request.method, apiPath));
      if (answer) return answer;
    }
    for (const interceptor of intercepting) {
      const answer = await interceptor.handle(request);
      if (answer) return answer;
    }
    return answer(direct || apiPath === undefined ? request : await forApp(request, url, apiPath));
  }

  return {
    app,
    store,
    clock: sandboxClock,
    base,
    data,
    sandboxApiKey: sandboxKey.key,
    scenarios,
    policy: () => app.rateLimiter.policy,
    fetch,
    deliverDue,
    intercept: (interceptor) => interceptors.push(interceptor),
    onReset: (listener) => resetListeners.push(listener),
    reset() {
      store.restore(snapshot);
      // The engine keeps nothing else between calls: its steps and deliveries are rows of
      // the store, and no round runs in the background.
      sandboxClock.reset();
      scenarios.clear();
      limits.reset();
      app.authenticator.invalidate();
      for (const listener of resetListeners) listener();
    },
  };
}

/** The request as the application routes it: `/v1/...` at the same origin. */
async function forApp(request: Request, url: URL, apiPath: string): Promise<Request> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  return new Request(`${url.origin}/v1${apiPath}${url.search}`, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
  });
}

/** `POST /v1/sandbox/campaigns/{campaign_id}/replies` (simulateReply), at any origin. */
function isSimulatedReply(url: string): boolean {
  return /\/v1\/sandbox\/campaigns\/[^/]+\/replies(?:\?|$)/.test(url);
}

/** The set fields only: `{ perEndpoint: undefined }` must not replace the service's default. */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
