/**
 * The standalone mock's control routes, for test suites in other languages, under
 * `/__ocs-mock/` (outside `/v1`, so never an API path):
 *
 * - `POST /__ocs-mock/reset`: back to the seeded state, the sandbox clock at real time (`204`).
 * - `GET /__ocs-mock/data`: the seeded data (`mock.data`), with the API key.
 * - `POST /__ocs-mock/scenarios`: one scenario, `{ "fail": { "operationId": "listLeads",
 *   "status": 503, "code": "UPSTREAM_TIMEOUT", "times": 2 } }`, or `latency`
 *   (`{ "ms": 200, "operations": [...] }`), `rateLimit` (`{ "perEndpoint": 3 }`),
 *   `unavailable` (`{ "times": 1 }`), `networkError` / `hang` (`{ "operations"?, "times"? }`),
 *   `truncate` (`{ ..., "after"? }`), `chaos` (`{ "rate", "seed", "kinds"?, "operations"? }`),
 *   `clear` (`true`); `204`, or `400` with the reason (scenario-body.ts).
 * - `GET /__ocs-mock/requests[?operation=createCampaign]`: the request journal,
 *   `{ requests, dropped, limit }` (redacted as `mock.requests` is); `DELETE` clears it.
 */
import type { Engine } from '../core/engine.ts';
import type { OperationId } from '../core/api-types.ts';
import { scenarioSteps } from './scenario-body.ts';

export const controlPath = '/__ocs-mock/';

export function controlRoutes(engine: Engine) {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  return async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const route = `${request.method} ${pathname}`;
    if (route === 'POST /__ocs-mock/reset') {
      engine.reset();
      return new Response(null, { status: 204 });
    }
    if (route === 'GET /__ocs-mock/data') return json(200, engine.data);
    if (route === 'GET /__ocs-mock/requests') {
      const requests = engine.journal.api;
      const operation = new URL(request.url).searchParams.get('operation');
      try {
        const entries = operation === null ? requests.all() : requests.of(operation as OperationId);
        return json(200, { requests: entries, dropped: requests.dropped, limit: requests.limit });
      } catch (error) {
        return json(400, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (route === 'DELETE /__ocs-mock/requests') {
      engine.journal.api.clear();
      return new Response(null, { status: 204 });
    }
    if (route === 'POST /__ocs-mock/scenarios') {
      const body = await request.json().catch(() => notJson);
      if (body === notJson) {
        return json(400, { error: '@ocs/mock: the body must be JSON, such as {"clear": true}.' });
      }
      try {
        // Every scenario named is checked before any is applied: a 400 changes nothing.
        for (const step of scenarioSteps(body)) step(engine.scenarios.api);
        return new Response(null, { status: 204 });
      } catch (error) {
        return json(400, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    return json(404, { error: `No control route ${route}. See the @ocs/mock README.` });
  };
}

/** What a body that does not parse as JSON reads as. */
const notJson = Symbol('not JSON');
