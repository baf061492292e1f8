/**
 * A page that is no secure context (plain http on a host other than localhost: a LAN
 * address, a docker-compose name, a `*.local` dev server) has no `crypto.randomUUID`. The
 * client makes its key from `crypto.getRandomValues` there, so a create is retried safely
 * as anywhere else; a key given by the caller is sent and retried too.
 * Checked in Debian's Chromium, the page served as `http://app.example:<port>` (the name
 * mapped to loopback by the browser itself, never resolved), the built package bundled as
 * an application bundles it.
 */
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { json, startServer } from './helpers/http.ts';
import { bundleClassicScript } from './support/classic-script.ts';
import { childTimeoutMs, packageDir } from './support/runtime-run.ts';

interface PageOutcome {
  secure: boolean;
  randomUUID: string;
  unkeyed: string;
  keyed: string;
}

const page = `
import { createCampaign, createClient, OcsError } from '@ocs/sdk';
globalThis.run = async (baseUrl) => {
  const client = createClient({ apiKey: 'ocs_test', baseUrl, maxRetries: 2 });
  const outcome = (promise) =>
    promise.then(
      (campaign) => 'created ' + campaign.idempotencyKey,
      (error) => (error instanceof OcsError ? error.name + ' ' + error.status : 'not an OcsError: ' + error),
    );
  return {
    secure: isSecureContext,
    randomUUID: typeof crypto.randomUUID,
    unkeyed: await outcome(createCampaign(client, { name: 'Unkeyed' })),
    keyed: await outcome(createCampaign(client, { name: 'Keyed' }, { idempotencyKey: 'page-key-1' })),
  };
};
`;

it(
  'creates from a page that is no secure context: a key made from getRandomValues, or the given one, retried',
  async () => {
    const executablePath = requireChromium();
    const code = await bundleClassicScript({ stdin: { contents: page, resolveDir: packageDir, loader: 'js' } });
    // The page and the API on one origin (no CORS in the way): each create answers 503 first.
    const failedOnce = new Set<string>();
    const server = await startServer((request, response) => {
      if (request.url === '/sdk.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
      if (request.method === 'POST' && request.url === '/v1/campaigns') {
        const { name } = JSON.parse(request.body) as { name: string };
        if (!failedOnce.has(name)) {
          failedOnce.add(name);
          return json(
            response,
            503,
            { success: false, error: 'UPSTREAM_TIMEOUT', message: 'Try again.' },
            {
              'retry-after': '0',
            },
          );
        }
        return json(response, 201, { success: true, campaign_id: 'c_1', campaign: null, message: 'Campaign created' });
      }
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/sdk.js"></script>');
    });
    const port = new URL(server.baseUrl).port;
    const browser = await chromium.launch({
      executablePath,
      args: [...chromiumArgs, '--host-resolver-rules=MAP app.example 127.0.0.1'],
      timeout: childTimeoutMs,
    });
    let outcome: PageOutcome;
    try {
      const tab = await browser.newPage();
      const origin = `http://app.example:${port}`;
      await tab.goto(`${origin}/`, { timeout: childTimeoutMs });
      outcome = await tab.evaluate(
        (baseUrl) => (globalThis as unknown as { run(url: string): Promise<PageOutcome> }).run(baseUrl),
        `${origin}/v1`,
      );
    } finally {
      await browser.close();
    }
    const made = /^created (\d{1,10}-\d{1,10}-\d{1,10}-\d{1,10})$/.exec(outcome.unkeyed)?.[1];
    expect({ ...outcome, unkeyed: made && 'created <made>' }).toEqual({
      secure: false,
      randomUUID: 'undefined',
      unkeyed: 'created <made>',
      keyed: 'created page-key-1',
    });
    const creates = server.received.filter((request) => request.url === '/v1/campaigns');
    expect(creates.map((request) => [JSON.parse(request.body).name, request.headers['idempotency-key']])).toEqual([
      ['Unkeyed', made],
      ['Unkeyed', made],
      ['Keyed', 'page-key-1'],
      ['Keyed', 'page-key-1'],
    ]);
  },
  childTimeoutMs + 10_000,
);
