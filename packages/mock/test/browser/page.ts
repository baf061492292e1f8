/**
 * The page the browser test loads: an integrator's browser code using @ocs/mock/browser
 * behind MSW's service worker, and @ocs/sdk. Bundled with esbuild for the browser (the
 * package's `browser` conditions), served from 127.0.0.1 with `mockServiceWorker.js`.
 */
import { createOcsMock } from '@ocs/mock/browser';
import {
  createCampaign,
  createClient,
  createWebhook,
  getCampaign,
  listCampaigns,
  listLeads,
  paginate,
  OcsNotFoundError,
} from '@ocs/sdk';
import { verifyAndParse } from '@ocs/sdk/webhooks';
import { http } from 'msw';
import { setupWorker } from 'msw/browser';

export interface PageResult {
  paged: { count: number; distinct: number };
  retriedTotal: number;
  controlled: boolean;
  mocked: number;
  createdName: string | undefined;
  total: number;
  names: string[];
  leadsTotal: number;
  error: { name: string; status: number; code: string; notFound: boolean } | undefined;
  webhook: { verified: boolean; sameKey: boolean };
  sandbox: { stepsRun: number; sent: number; delivery: string | undefined; received: boolean; clockBack: boolean };
  afterReset: number;
  journal: {
    names: Array<string | undefined>;
    authorization: string | undefined;
    statuses: number[];
    emptied: boolean;
  };
  faults: {
    reset: { name: string; total: number; faults: Array<string | null> };
    cut: { status: number; read: string; retriedTotal: number };
    hang: { error: string; endedWithTheClient: boolean; endedByClear: boolean };
  };
}

/** The journal in the page: what the page's own code sent, typed by operation. */
function journalChecks(mock: Awaited<ReturnType<typeof createOcsMock>>): PageResult['journal'] {
  const creates = mock.requests.of('createCampaign');
  return {
    names: creates.map((entry) => entry.body?.name),
    authorization: creates[0]?.headers.authorization,
    statuses: creates.map((entry) => entry.response?.status ?? 0),
    emptied: false,
  };
}

/** A connection reset and a cut body through the service worker, raw and through the SDK. */
async function faultChecks(
  mock: Awaited<ReturnType<typeof createOcsMock>>,
  client: ReturnType<typeof createClient>,
): Promise<PageResult['faults']> {
  mock.scenarios.networkError({ operations: ['listCampaigns'], times: 1 });
  const name = await fetch(`${mock.baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${mock.apiKey}` } }).then(
    () => 'answered',
    (error: unknown) => (error as Error).name,
  );
  mock.scenarios.networkError({ operations: ['listCampaigns'], times: 1 });
  const { total } = await listCampaigns(client);
  const faults = mock.requests.of('listCampaigns').map((entry) => entry.fault);

  mock.scenarios.truncate({ operations: ['listLeads'], times: 1 });
  const response = await fetch(`${mock.baseUrl}/leads`, { headers: { Authorization: `Bearer ${mock.apiKey}` } });
  const read = await response.text().then(
    (text) => `read ${text.length} characters`,
    (error: unknown) => `failed: ${(error as Error).name}`,
  );
  mock.scenarios.truncate({ operations: ['listCampaigns'], times: 1 });
  const retriedTotal = (await listCampaigns(client)).total;

  mock.scenarios.hang({ operations: ['getCampaign'], times: 1 });
  const campaign_id = mock.data.campaigns[0]?.id ?? '';
  const error = await getCampaign(client, { campaign_id }, { timeoutMs: 300 }).then(
    () => 'answered',
    (caught: unknown) => (caught as Error).name,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  // MSW's service worker does not pass the page's abort on to the handler: the hang waits
  // for scenarios.clear() (or reset()), holding only a promise.
  const endedWithTheClient = mock.requests.last('getCampaign')?.durationMs !== null;
  mock.scenarios.clear();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const endedByClear = mock.requests.last('getCampaign')?.durationMs !== null;
  return {
    reset: { name, total, faults },
    cut: { status: response.status, read, retriedTotal },
    hang: { error, endedWithTheClient, endedByClear },
  };
}

/**
 * A campaign's webhook receiving a simulated reply in the page: the engine's delivery is a
 * `fetch` from the page, which the worker hands to the receiver mocked with MSW.
 */
async function sandboxChecks(
  mock: Awaited<ReturnType<typeof createOcsMock>>,
  worker: ReturnType<typeof setupWorker>,
  client: ReturnType<typeof createClient>,
) {
  const campaign = mock.data.campaigns[0];
  const lead = mock.data.leads.find((l) => l.enrolments[0]?.campaign_id === campaign?.id);
  if (!campaign || !lead) throw new Error('seeded data missing');
  const hookUrl = 'https://hooks.northwind-outreach.com/ocs';
  const secret = 'whsec_browser_sandbox_0123456789';
  let received = false;
  worker.use(
    http.post(hookUrl, async ({ request }) => {
      await verifyAndParse(request, { secret });
      received = true;
      return new Response(null, { status: 204 });
    }),
  );
  await createWebhook(client, { campaign_id: campaign.id, webhook_url: hookUrl, secret });
  const advanced = await mock.sandbox.advanceClock({ days: 1 });
  const sent = (await mock.sandbox.messages(campaign.id)).length;
  const { delivery } = await mock.sandbox.reply({
    leadId: lead.id,
    channel: 'email',
    message: "Sounds good, let's talk.",
  });
  mock.reset();
  const clockBack = Math.abs(mock.sandbox.now().getTime() - Date.now()) < 60_000;
  return { stepsRun: advanced.ran.steps_run, sent, delivery: delivery?.status, received, clockBack };
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
  // Every lead, 7 to a page: the pages add up to `total`.
  const paged: string[] = [];
  for await (const lead of paginate(client, listLeads, {}, { pageSize: 7 })) paged.push(lead.id);
  // The service rate-limits twice; the SDK waits `Retry-After` (0 s) and retries.
  mock.scenarios.fail('listCampaigns', { status: 429, code: 'RATE_LIMITED', times: 2, retryAfter: 0 });
  const retried = await listCampaigns(client);
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
  const journal = journalChecks(mock);
  const sandbox = await sandboxChecks(mock, worker, client);
  mock.reset();
  journal.emptied = mock.requests.all().length === 0;
  const afterReset = (await listCampaigns(client)).total;
  const faults = await faultChecks(mock, client);
  worker.stop();
  return {
    controlled: navigator.serviceWorker.controller !== null,
    mocked,
    createdName: created.campaign?.name,
    total: list.total,
    names: list.campaigns.map((c) => c.name),
    leadsTotal: leads.total,
    paged: { count: paged.length, distinct: new Set(paged).size },
    retriedTotal: retried.total,
    error,
    webhook: { verified: true, sameKey: parsed.idempotency_key === event.idempotency_key },
    sandbox,
    afterReset,
    journal,
    faults,
  };
}

(globalThis as unknown as { runMockChecks: () => Promise<string> }).runMockChecks = async () =>
  JSON.stringify(await run());
