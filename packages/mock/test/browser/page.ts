/**
 * The page the browser test loads: an integrator's browser code using @ocs/mock/browser
 * behind MSW's service worker, and @ocs/sdk. Bundled with esbuild for the browser (the
 * package's `browser` conditions), served from 127.0.0.1 with `mockServiceWorker.js`.
 */
import { createOcsMock } from '@ocs/mock/browser';
import { createCampaign, createClient, getCampaign, listCampaigns, listLeads, OcsNotFoundError } from '@ocs/sdk';
import { verifyAndParse } from '@ocs/sdk/webhooks';
import { setupWorker } from 'msw/browser';

export interface PageResult {
  controlled: boolean;
  mocked: number;
  createdName: string | undefined;
  total: number;
  names: string[];
  leadsTotal: number;
  error: { name: string; status: number; code: string; notFound: boolean } | undefined;
  webhook: { verified: boolean; sameKey: boolean };
  afterReset: number;
}

async function run(): Promise<PageResult> {
  const mock = await createOcsMock({ seed: 21 });
  const worker = setupWorker(...mock.handlers);
  let mocked = 0;
  worker.events.on('response:mocked', () => {
    mocked += 1;
  });
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  const client = createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

  const created = await createCampaign(client, { name: 'From Chromium' });
  const list = await listCampaigns(client);
  const leads = await listLeads(client, { limit: 5 });
  let error: PageResult['error'];
  try {
    await getCampaign(client, { campaign_id: crypto.randomUUID() });
  } catch (caught) {
    const e = caught as OcsNotFoundError;
    error = { name: e.name, status: e.status, code: e.code, notFound: caught instanceof OcsNotFoundError };
  }
  const secret = 'whsec_browser_0123456789';
  const { request, event } = await mock.webhooks.trigger({ secret });
  const parsed = await verifyAndParse(request, { secret });
  mock.reset();
  const afterReset = (await listCampaigns(client)).total;
  worker.stop();
  return {
    controlled: navigator.serviceWorker.controller !== null,
    mocked,
    createdName: created.campaign?.name,
    total: list.total,
    names: list.campaigns.map((c) => c.name),
    leadsTotal: leads.total,
    error,
    webhook: { verified: true, sameKey: parsed.idempotency_key === event.idempotency_key },
    afterReset,
  };
}

(globalThis as unknown as { runMockChecks: () => Promise<string> }).runMockChecks = async () =>
  JSON.stringify(await run());
