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
  conversationTexts,
  createApp,
  createFetchTransport,
  createMemoryStore,
  type MemoryStore,
  type OperationInfo,
  type RateLimitPolicy,
  SandboxClock,
} from '@ocs/server';
import { type BaseUrl, parseBaseUrl } from './base-url.ts';
import { defaultCut, hangs, networkError, truncated } from './faults.ts';
import { deepFreeze } from './frozen.ts';
import { createJournal, type Journal } from './journal/journal.ts';
import { operationMatcher, pathParams } from './operations.ts';
import type { Clock, OcsMockOptions } from './options.ts';
import { rateLimitControl } from './rate-limits.ts';
import { type ScenarioEngine, scenarioEngine } from './scenarios.ts';
import { urlParts } from './url-parts.ts';
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
  /** The seeded data, deep-frozen (frozen.ts). */
  readonly data: OcsMockData;
  /** The key `mock.sandbox` calls the application with; rate limits do not count it. */
  readonly sandboxApiKey: string;
  readonly scenarios: ScenarioEngine;
  /** The request journal (`mock.requests`). */
  readonly journal: Journal;
  /** The rate-limit policy in force (scenarios may have lowered it). */
  policy(): RateLimitPolicy;
  /**
   * Runs a request through the journal, scenarios, interceptors and the application. A fault
   * comes back as a marked Response (faults.ts) for the caller to act out.
   */
  fetch(request: Request): Promise<Response>;
  /** Attempts every `prospect_response` delivery due now (the engine's delivery worker). */
  deliverDue(): Promise<number>;
  /** Adds a layer between the scenarios and the application (the MSW overrides). */
  intercept(interceptor: Interceptor): void;
  /** Runs on every `reset()`, after the store is restored. */
  onReset(listener: () => void): void;
  reset(): void;
  /** Lets every hanging request go, answered with a connection reset (the server's `close()`). */
  releaseHangs(): void;
}

/** What the engine asks of the layer that carries its requests (MSW, ocs-mock's listener). */
export interface EngineTransport {
  /**
   * A signal that aborts once the request's client has left, which ends a `hang`. By default
   * the request's own signal; ocs-mock's listener adds the client's end of its half-open
   * socket (socket-faults.ts), which no longer closes the socket at once.
   */
  clientGone?(request: Request): AbortSignal;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * The engine of `createOcsMock` and `startMockServer`, which check `options` first
 * (`checkMockOptions`): refused there, with the option's name, rather than as a 500 while
 * seeding or on every request.
 */
export async function createEngine(options: OcsMockOptions = {}, transport: EngineTransport = {}): Promise<Engine> {
  const clientGone = transport.clientGone ?? ((request: Request) => request.signal);
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
    // The leads page is kept as its JSON text until the store's next write (a reset too).
    cacheAnswers: true,
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
  const hanging = hangs();
  const scenarios = scenarioEngine(
    { policy: () => app.rateLimiter.policy, setBudget: limits.setBudget, reset: limits.reset },
    () => hanging.releaseAll(),
  );
  const journal = createJournal({ limit: options.journal?.limit, now: () => sandboxClock.now() });
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
    if (direct && intercepting.length === 0 && !scenarios.active() && !journal.enabled) return answer(request);
    // Its path and query, without the URL parser for a plain URL (url-parts.ts).
    const { pathname, search } = urlParts(request.url);
    const apiPath = pathname.startsWith(`${base.path}/`) ? pathname.slice(base.path.length) : undefined;
    // Outside the API (`/openapi.json`): no scenario, no journal.
    if (apiPath === undefined) return passOn(request, intercepting, apiPath);
    const operation = match(request.method, apiPath);
    const entry = journal.begin(request, search, apiPath, operation);
    if (entry?.reading) await entry.reading;
    const outcome = scenarios.active() ? await scenarios.apply(request, operation) : undefined;
    if (outcome && 'answer' in outcome) return entry ? entry.answered(outcome.answer) : outcome.answer;
    // The client gave up before the service saw the request (during added latency, say):
    // nothing is written, and the entry stays without an answer, as after a `hang`. A GET
    // or HEAD with no scenario is answered all the same (it writes nothing, and nothing was
    // awaited since its arrival): on ocs-mock, reading `signal` builds an AbortController
    // for the request, 3.5 % of a journaled leads page's CPU.
    if ((outcome && 'aborted' in outcome) || ((outcome || !readOnly.has(request.method)) && request.signal.aborted)) {
      entry?.abandoned();
      return networkError();
    }
    const fault = outcome?.fault;
    if (fault?.kind === 'networkError') {
      entry?.faulted('networkError');
      return networkError();
    }
    if (fault?.kind === 'hang') {
      entry?.hanging();
      await hanging.wait(clientGone(request));
      entry?.faulted('hang');
      return networkError();
    }
    // An erased lead leaves the journal: read it and its conversation before the DELETE,
    // check it is gone after.
    const erasing = entry && operation?.operationId === 'deleteLead' ? await leadToErase(operation, apiPath) : null;
    let response: Response;
    try {
      // Straight to the application when nothing intercepts and no path is mapped (what
      // `passOn` would do): on ocs-mock every journaled request went through one async
      // function and one `.catch` promise more than an unjournaled one, each a turn of the
      // microtask queue.
      response = await (intercepting.length === 0 && direct ? answer(request) : passOn(request, intercepting, apiPath));
    } catch (error) {
      entry?.abandoned();
      throw error;
    }
    if (erasing && !(await store.leads.get(erasing.lead.organization_id, erasing.lead.id))) {
      journal.erase(erasing.lead, erasing.conversation);
    }
    if (fault?.kind === 'truncate') {
      const body = new Uint8Array(await response.arrayBuffer());
      entry?.faulted('truncate', { response, body });
      // An answer without a body has nothing to cut: the client loses it whole.
      if (body.byteLength === 0) return networkError();
      return truncated(response, body, Math.min(fault.after ?? defaultCut(body.byteLength), body.byteLength - 1));
    }
    return entry ? entry.answered(response) : response;
  }

  /** The lead a `deleteLead` names, and its conversation's texts, read before the DELETE runs. */
  async function leadToErase(operation: OperationInfo, apiPath: string) {
    // The server takes the ID in any case (validation lower-cases a UUID); the store holds it in lower case.
    const leadId = (pathParams(operation.path, apiPath).lead_id ?? '').toLowerCase();
    const lead = await store.leads.get(data.organization.id, leadId);
    if (!lead) return null;
    const texts = await conversationTexts(store, lead.organization_id, lead.id);
    const enrolmentIds = (await store.enrolments.listForLead(lead.id)).map((enrolment) => enrolment.id);
    return { lead, conversation: { texts, enrolmentIds } };
  }

  /** The interceptors' answer, else the application's. */
  async function passOn(request: Request, intercepting: Interceptor[], apiPath: string | undefined): Promise<Response> {
    for (const interceptor of intercepting) {
      const answer = await interceptor.handle(request);
      if (answer) return answer;
    }
    return answer(direct || apiPath === undefined ? request : await forApp(request, apiPath));
  }

  return {
    app,
    store,
    clock: sandboxClock,
    base,
    // Frozen: it describes the seeded state, which a test's change in place would falsify.
    data: deepFreeze(data),
    sandboxApiKey: sandboxKey.key,
    scenarios,
    journal,
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
      journal.clear();
      limits.reset();
      app.authenticator.invalidate();
      for (const listener of resetListeners) listener();
    },
    releaseHangs: () => hanging.releaseAll(),
  };
}

/** The request as the application routes it: `/v1/...` at the same origin. */
async function forApp(request: Request, apiPath: string): Promise<Request> {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  return new Request(`${url.origin}/v1${apiPath}${url.search}`, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
  });
}

/** Methods that write nothing. */
const readOnly = new Set(['GET', 'HEAD']);

/** `POST /v1/sandbox/campaigns/{campaign_id}/replies` (simulateReply), at any origin. */
function isSimulatedReply(url: string): boolean {
  return /\/v1\/sandbox\/campaigns\/[^/]+\/replies(?:\?|$)/.test(url);
}

/** The set fields only: `{ perEndpoint: undefined }` must not replace the service's default. */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
