/**
 * What `sdk-client` (client.bench.ts) times and `profile-client.ts` profiles: a node:http
 * server on a free loopback port answering `getCampaign`'s fixed JSON body, and three ways
 * to make that call, each resolving once the body is parsed:
 *
 * - `sdk`: `getCampaign(client, ...)` on the built package (retries, deadline that aborts,
 *   `X-OCS-Client`, rate-limit state, result metadata).
 * - `fetch`: the raw fetch a careful integrator writes for the same job: three headers
 *   (`Authorization`, `Content-Type`, `Accept`; the SDK sends `Authorization`,
 *   `X-OCS-Client` and `User-Agent`), a deadline that aborts the request
 *   (`AbortSignal.timeout` of the SDK's default `timeoutMs`), a check of the status, `json()`.
 * - `bare`: `fetch(url, { headers: { Authorization } })` + `json()`, the baseline until
 *   2026-11-26: one header, no deadline (nothing would abort a request that hangs).
 */
import { createServer } from 'node:http';
// The built package, as applications run it (the runner builds it first).
import { createClient, getCampaign } from '@ocs/sdk';
import { listenOnFreePort } from '../../../../bench/harness/ports.ts';

const campaignId = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const body = JSON.stringify({
  success: true,
  campaign: {
    id: campaignId,
    name: 'Q4 Founders Outreach',
    is_active: true,
    created_at: '2026-10-05T09:00:00+00:00',
    updated_at: '2026-10-05T09:00:00+00:00',
    description: 'Founders of seed to Series A B2B startups',
    ab_testing_enabled: true,
    traffic_split: 50,
  },
});
const headers = {
  'Content-Type': 'application/json',
  'Content-Length': String(Buffer.byteLength(body)),
  'X-Request-ID': 'req_5f2c9a7e1b3d4f60a8c2e9b1',
  'RateLimit-Limit': '100',
  'RateLimit-Remaining': '97',
  'RateLimit-Reset': '42',
};

export type Contender = 'sdk' | 'fetch' | 'bare';

export const bodyBytes = Buffer.byteLength(body);

/** Starts the server; `close` stops it. */
export async function startContenders(): Promise<{ run: Record<Contender, () => Promise<void>>; close(): void }> {
  const server = createServer((_request, response) => response.writeHead(200, headers).end(body));
  const base = `${await listenOnFreePort(server)}/v1`;
  const url = `${base}/campaigns/${campaignId}`;
  const client = createClient({ apiKey: 'ocs_bench', baseUrl: base });
  const auth = { Authorization: 'Bearer ocs_bench' };
  const careful = { ...auth, 'Content-Type': 'application/json', Accept: 'application/json' };
  const run = {
    sdk: async () => {
      await getCampaign(client, { campaign_id: campaignId });
    },
    fetch: async () => {
      // The SDK's default deadline; the timer is what a raw fetch pays for aborting.
      const response = await fetch(url, { headers: careful, signal: AbortSignal.timeout(60_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await response.json();
    },
    bare: async () => {
      const response = await fetch(url, { headers: auth });
      await response.json();
    },
  };
  return { run, close: () => server.close() };
}
