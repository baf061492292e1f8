/**
 * The API the runtime checks call (test/runtimes/checks.js): a script of exact answers on a
 * real node:http server on loopback (helpers/http.ts), built from the document's examples, with
 * every answer recorded so that the test can say what the client really did:
 *
 * - `POST /v1/campaigns` creates a campaign that `GET /v1/campaigns/{id}` then returns;
 * - the rate-limited campaign answers 429 with `Retry-After: 1` once, then 200;
 * - the missing campaign answers 404 `CAMPAIGN_NOT_FOUND`;
 * - the hanging campaign never answers (its socket's close is recorded);
 * - `GET /v1/leads` pages through the leads by `limit` and `offset`;
 * - `GET /runtime-check/hanging-closed`, not the API's, is the checks' probe: it answers, as
 *   soon as the hanging request's socket has closed (or after 2 s), whether it has, so that
 *   the runtime sees its deadline free the socket while it still runs (its exit would close
 *   it anyway).
 *
 * For a page on another origin (Chromium), it answers CORS as the reference server does
 * (packages/server/src/http/middleware/cors.ts): preflights, and the headers a page may read.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { examplesOf, type JsonObject, loadBundledDocument, operationsOf, responsesOf } from '@ocs/openapi/support';
import { json, type Received, startServer, type TestServer } from '../helpers/http.ts';
import type { RuntimeCheckInput } from '../runtimes/types.ts';

/** Seconds the 429 asks the client to wait. */
export const retryAfterSeconds = 1;

/** What the server answered to one request (preflights aside). */
export interface Answered {
  received: Received;
  status: number;
  /** The `X-Request-ID` it sent. */
  requestId: string;
  /** When it arrived (epoch ms). */
  at: number;
  /** When its socket closed, for a request left unanswered. */
  closedAt?: number;
}

export interface RuntimeApi {
  server: TestServer;
  /** Every request to the API but preflights, in order, with what it was answered. */
  answered: Answered[];
  /** The CORS preflights received. */
  preflights: Received[];
  /** The probes of the hanging request's socket. */
  probes: Received[];
}

/** The probe's path: outside /v1, not an API request. */
export const hangingClosedPath = '/runtime-check/hanging-closed';
const probeWaitMs = 2_000;

type Ids = Pick<
  RuntimeCheckInput,
  'rateLimitedCampaignId' | 'missingCampaignId' | 'hangingCampaignId' | 'leadsCampaignId'
>;

export interface RuntimeApiScript extends Ids {
  /** The leads of `leadsCampaignId`, in order. */
  leadIds: string[];
  /** The page origin allowed by CORS, if any. */
  allowedOrigin?: string;
}

const document = loadBundledDocument();

/** The first example of an operation's answer at a status, as the document gives it. */
function documentExample(operationId: string, status: string): JsonObject {
  const operation = operationsOf(document).find((op) => op.operation.operationId === operationId);
  const answer = operation && responsesOf(document, operation).find((response) => response.status === status);
  const media = (answer?.response.content as JsonObject | undefined)?.['application/json'] as JsonObject;
  const [example] = media ? examplesOf(document, media) : [];
  if (!example) throw new Error(`The document has no example of ${operationId} ${status}`);
  return example.value as JsonObject;
}

// A campaign and a lead in the document's own shapes, from its examples, under the test's IDs.
const exampleCampaign = documentExample('getCampaign', '200').campaign as JsonObject;
const exampleLead = (documentExample('listLeads', '200').leads as JsonObject[])[0] as JsonObject;
const campaign = (id: string, name: string) => ({ ...exampleCampaign, id, name });
const lead = (id: string) => ({ ...exampleLead, id });
const errorBody = (error: string, message: string, requestId: string) => ({
  success: false,
  error,
  message,
  request_id: requestId,
});

// What the checks need of the reference server's lists (corsAllowedHeaders, corsExposedHeaders):
// a fixed subset, so that a header the SDK reads or sends beyond it fails the browser check.
const allowedHeaders = 'Authorization, Content-Type, Idempotency-Key, X-Request-ID, X-OCS-Client';
const exposedHeaders = 'X-Request-ID, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

/** The CORS headers of an answer: none unless the request came from the allowed origin. */
function corsHeaders(script: RuntimeApiScript, request: Received): Record<string, string> {
  const { origin } = request.headers;
  if (script.allowedOrigin === undefined || origin !== script.allowedOrigin) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposedHeaders, Vary: 'Origin' };
}

/** Starts the scripted API for one test (closed after it, by helpers/http.ts). */
export async function startRuntimeApi(script: RuntimeApiScript): Promise<RuntimeApi> {
  const answered: Answered[] = [];
  const preflights: Received[] = [];
  const probes: Received[] = [];
  const hanging: Answered[] = [];
  let hangingClosed = () => {};
  const whenHangingClosed = new Promise<void>((resolve) => (hangingClosed = resolve));
  const campaigns = new Map([[script.rateLimitedCampaignId, campaign(script.rateLimitedCampaignId, 'Rate limited')]]);
  const leads = script.leadIds.map((id) => lead(id));

  const server = await startServer((request, response) => {
    const cors = corsHeaders(script, request);
    if (request.method === 'OPTIONS') {
      preflights.push(request);
      const allowed = cors['Access-Control-Allow-Origin'] !== undefined;
      const grant = {
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
        'Access-Control-Allow-Headers': allowedHeaders,
        'Access-Control-Max-Age': '600',
      };
      response.writeHead(204, { ...cors, ...(allowed ? grant : {}) }).end();
      return;
    }
    if (request.url === hangingClosedPath) {
      probes.push(request);
      void Promise.race([whenHangingClosed, delay(probeWaitMs)]).then(() => {
        const closed = hanging.length > 0 && hanging.every((entry) => entry.closedAt !== undefined);
        json(response, 200, { closed }, cors);
      });
      return;
    }

    const entry: Answered = {
      received: request,
      status: 0,
      requestId: `req_rt_${answered.length + 1}`,
      at: Date.now(),
    };
    answered.push(entry);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      json(response, status, body, { 'X-Request-ID': entry.requestId, ...cors, ...headers });
    };
    const notFound = (code: string, message: string) => answer(404, errorBody(code, message, entry.requestId));

    const url = new URL(request.url, 'http://api.test');
    const campaignId = /^\/v1\/campaigns\/([^/]+)$/.exec(url.pathname)?.[1];
    if (request.method === 'POST' && url.pathname === '/v1/campaigns') {
      const id = `7d0f3a2b-5c4e-4f6a-8b9c-${String(campaigns.size).padStart(12, '0')}`;
      campaigns.set(id, campaign(id, (JSON.parse(request.body) as { name: string }).name));
      answer(201, {
        success: true,
        message: 'Campaign created in draft state',
        campaign_id: id,
        campaign: campaigns.get(id),
      });
    } else if (request.method !== 'GET') {
      notFound('NOT_FOUND', `No route for ${request.method} ${url.pathname}.`);
    } else if (campaignId === script.hangingCampaignId) {
      // Never answered: the client's deadline must end the call and free the socket.
      hanging.push(entry);
      request.socket.once('close', () => {
        entry.closedAt = Date.now();
        hangingClosed();
      });
    } else if (campaignId === script.rateLimitedCampaignId && countOf(answered, request) === 1) {
      const message = `Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`;
      answer(429, errorBody('RATE_LIMITED', message, entry.requestId), {
        'Retry-After': String(retryAfterSeconds),
        'RateLimit-Limit': '100',
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(retryAfterSeconds),
      });
    } else if (campaignId !== undefined) {
      const found = campaigns.get(campaignId);
      if (found) answer(200, { success: true, campaign: found });
      else notFound('CAMPAIGN_NOT_FOUND', `Campaign ${campaignId} not found.`);
    } else if (url.pathname === '/v1/leads' && url.searchParams.get('campaign_id') === script.leadsCampaignId) {
      const limit = Number(url.searchParams.get('limit') ?? 20);
      answer(200, leadsPage(leads, limit, Number(url.searchParams.get('offset') ?? 0)));
    } else {
      notFound('NOT_FOUND', `No route for GET ${url.pathname}.`);
    }
  });
  return { server, answered, preflights, probes };
}

/** A page of `GET /v1/leads`, by `limit` and `offset`. */
function leadsPage(leads: JsonObject[], limit: number, offset: number) {
  const page = leads.slice(offset, offset + limit);
  return {
    success: true,
    message: 'Leads retrieved',
    count: page.length,
    total: leads.length,
    limit,
    offset,
    has_more: offset + page.length < leads.length,
    page: Math.floor(offset / limit) + 1,
    leads: page,
  };
}

/** How many requests so far had this one's method and URL. */
function countOf(answered: Answered[], request: Received): number {
  return answered.filter((a) => a.received.method === request.method && a.received.url === request.url).length;
}
