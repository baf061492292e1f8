/**
 * Sends cases through `app.fetch` (in process, real `Request`s) and judges each answer:
 * a 5xx the document does not list for the case (only `500 ORG_HAS_NO_MEMBERS` of
 * `createCampaign` is) and any answer not as documented (support/contract.ts) are failures.
 * The app's handlers are wrapped to count which requests reached one: a request that only
 * met authentication, validation or routing did not.
 */
import { type App, createApp } from '../../src/app.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import { handlers as allHandlers } from '../../src/routes/index.ts';
import type { PartialHandlers } from '../../src/routes/registry.ts';
import type { Store } from '../../src/store/types.ts';
import { contractViolations } from '../support/contract.ts';
import { createFixtures, type Fixtures, type Organization } from './fixtures.ts';
import { encodeLoose, type FuzzCase, RawJson, Ref, Spliced, stringifyBody } from './model.ts';

/** 5xx answers the document lists for a case: operation and error code. */
const listedServerErrors = [{ operationId: 'createCampaign', status: 500, error: 'ORG_HAS_NO_MEMBERS' }];

const requestTimeoutMs = 15_000;

export interface Outcome {
  case: FuzzCase;
  /** The request as sent (the key left out, long values cut). */
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  status: number | null;
  body: unknown;
  reachedHandler: boolean;
  /** What is wrong: an unlisted 5xx, contract violations, a hang, a thrown error. */
  failures: string[];
  /** Errors the app logged for the request (stacks of 500s). */
  logged: string[];
  /** The request could not be built (a header value `Request` refuses): not sent. */
  unsendable?: string;
}

export interface Runner {
  app: App;
  fixtures: Fixtures;
  send(fuzzCase: FuzzCase): Promise<Outcome>;
}

export async function createRunner(store: Store): Promise<Runner> {
  let reached = false;
  const logged: LogEntry[] = [];
  const counted = Object.fromEntries(
    Object.entries(allHandlers).map(([operationId, handler]) => [
      operationId,
      (request: never, services: never) => {
        reached = true;
        return (handler as (request: never, services: never) => Promise<unknown>)(request, services);
      },
    ]),
  ) as PartialHandlers;
  const app = createApp({
    store,
    handlers: counted,
    config: { sandbox: true },
    rateLimits: { perEndpoint: 1_000_000_000, total: 1_000_000_000 },
    logger: { log: (entry) => (entry.level === 'error' ? logged.push(entry) : undefined) },
  });
  const fixtures = await createFixtures(app, store);

  async function send(fuzzCase: FuzzCase): Promise<Outcome> {
    const own = fixtures.own;
    const path = resolvePath(fuzzCase, fixtures);
    const query = fuzzCase.query
      .map(([name, value]) => `${encodeLoose(name)}=${encodeLoose(text(value, fixtures))}`)
      .join('&');
    const url = `http://localhost/v1${path}${query ? `?${query}` : ''}`;
    const headers = new Map<string, string>([['Authorization', `Bearer ${own.key}`]]);
    const body =
      fuzzCase.rawBody ??
      (fuzzCase.body === undefined ? undefined : stringifyBody(resolveBody(fuzzCase.body, fixtures)));
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(fuzzCase.headers)) {
      if (value === null) headers.delete(name);
      else headers.set(name, value.replaceAll('{key}', own.key));
    }
    const shown = {
      method: fuzzCase.method,
      url: cut(url),
      headers: Object.fromEntries([...headers].map(([name, value]) => [name, cut(value.replaceAll(own.key, '<key>'))])),
      ...(body === undefined ? {} : { body: cut(body) }),
    };
    const outcome: Outcome = {
      case: fuzzCase,
      request: shown,
      status: null,
      body: undefined,
      reachedHandler: false,
      failures: [],
      logged: [],
    };
    let request: Request;
    try {
      request = new Request(url, { method: fuzzCase.method, headers: [...headers], body });
    } catch (error) {
      outcome.unsendable = String(error);
      return outcome;
    }
    reached = false;
    logged.length = 0;
    let timer: NodeJS.Timeout | undefined;
    try {
      const response = await Promise.race([
        app.fetch(request),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${requestTimeoutMs} ms`)), requestTimeoutMs);
        }),
      ]);
      const answer = await response.text();
      outcome.status = response.status;
      try {
        outcome.body = answer === '' ? undefined : JSON.parse(answer);
      } catch {
        outcome.body = cut(answer);
        outcome.failures.push('answer is not JSON');
      }
      if (response.status >= 500 && !listed(fuzzCase, response.status, outcome.body)) {
        outcome.failures.push(`unlisted ${response.status}`);
      }
      if (fuzzCase.mustRefuse && (response.status < 400 || response.status >= 500)) {
        outcome.failures.push(`answered ${response.status}: ${fuzzCase.mustRefuse}`);
      }
      // As the URL was parsed: `/campaigns/./webhook` is `/campaigns/webhook`, and routes as such.
      const sent = new URL(request.url);
      const pathAndQuery = `${sent.pathname}${sent.search}`;
      outcome.failures.push(...contractViolations(fuzzCase.method, pathAndQuery, response, outcome.body));
    } catch (error) {
      outcome.failures.push(`threw: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    outcome.reachedHandler = reached;
    outcome.logged = logged.map((entry) => String(entry.error ?? entry.message));
    if (outcome.status !== null && outcome.status < 300) harvest(fuzzCase, outcome.body, fixtures.own);
    return outcome;
  }

  return { app, fixtures, send };
}

function listed(fuzzCase: FuzzCase, status: number, body: unknown): boolean {
  const error = (body as { error?: unknown } | undefined)?.error;
  return listedServerErrors.some(
    (l) => l.operationId === fuzzCase.operationId && l.status === status && l.error === error,
  );
}

/** The path with real IDs in; a webhook's or AI field's campaign is the one it belongs to. */
function resolvePath(fuzzCase: FuzzCase, fixtures: Fixtures): string {
  const values: Record<string, string> = {};
  let parent: string | undefined;
  for (const value of Object.values(fuzzCase.path)) {
    if (value instanceof Ref && !value.variant && (value.kind === 'webhook' || value.kind === 'ai_field')) {
      parent = entry(value, fixtures)?.campaign;
    }
  }
  for (const [name, value] of Object.entries(fuzzCase.path)) {
    const own = value instanceof Ref && value.kind === 'campaign' && !value.foreign && !value.variant;
    values[name] = own && parent ? parent : text(value, fixtures);
  }
  return fuzzCase.template.replaceAll(/\{(\w+)\}/g, (_, name: string) => encodeLoose(values[name] ?? ''));
}

function entry(ref: Ref, fixtures: Fixtures) {
  const pool = (ref.foreign ? fixtures.foreign : fixtures.own).pools[ref.kind];
  return pool[ref.index % pool.length];
}

function refId(ref: Ref, fixtures: Fixtures): string {
  const id = entry(ref, fixtures)?.id ?? crypto.randomUUID();
  if (ref.variant === 'upper') return id.toUpperCase();
  if (ref.variant === 'padded') return ` ${id} `;
  if (ref.variant === 'urn') return `urn:uuid:${id}`;
  return id;
}

/** A value as the text of a path or query parameter. */
function text(value: unknown, fixtures: Fixtures): string {
  if (value instanceof Ref) return refId(value, fixtures);
  if (value instanceof Spliced) return splice(value, fixtures);
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'string') return value;
  return JSON.stringify(resolveBody(value, fixtures)) ?? '';
}

function splice(value: Spliced, fixtures: Fixtures): string {
  const id = refId(value.into, fixtures);
  const at = value.at % (id.length + 1);
  return id.slice(0, at) + value.text + id.slice(at);
}

function resolveBody(value: unknown, fixtures: Fixtures): unknown {
  if (value instanceof Ref) return refId(value, fixtures);
  if (value instanceof Spliced) return splice(value, fixtures);
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map((item) => resolveBody(item, fixtures));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: resolveBody(item, fixtures),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** What a valid request created joins the pools, so later cases can use it. */
function harvest(fuzzCase: FuzzCase, body: unknown, own: Organization): void {
  const answer = body as Record<string, unknown> | undefined;
  if (!answer) return;
  switch (fuzzCase.operationId) {
    case 'createCampaign':
      if (typeof answer.campaign_id === 'string') own.pools.campaign.push({ id: answer.campaign_id });
      break;
    case 'createLead':
    case 'createLeadLegacy': {
      const id = (answer.lead as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') own.pools.lead.push({ id });
      break;
    }
    case 'createDeal':
      if (typeof answer.id === 'string') own.pools.deal.push({ id: answer.id });
      break;
  }
}

function cut(value: string, max = 400): string {
  return value.length > max ? `${value.slice(0, max)}… (${value.length} chars)` : value;
}
