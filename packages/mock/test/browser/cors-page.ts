/**
 * The page of the CORS browser test: @ocs/sdk calling a server on another origin with the
 * headers it sends itself (`X-OCS-Client`, `Idempotency-Key`), and @ocs/mock/browser behind
 * MSW's service worker, answering for `https://api.ocs.test` while the page is served from
 * 127.0.0.1.
 */
import { createOcsMock } from '@ocs/mock/browser';
import { createCampaign, createClient, OcsError } from '@ocs/sdk';
import { setupWorker } from 'msw/browser';

export interface SdkResult {
  name?: string;
  requestId?: string;
  rateLimit?: { limit?: number; remaining?: number; reset?: number };
  error?: string;
}

/** `createCampaign` with the SDK, which sends its own headers and reads the answer's. */
async function createWithSdk(baseUrl: string, apiKey: string, name: string): Promise<SdkResult> {
  const client = createClient({ apiKey, baseUrl, maxRetries: 0 });
  try {
    const created = await createCampaign(client, { name });
    const { limit, remaining, reset } = created.rateLimit;
    return { name: created.campaign?.name, requestId: created.requestId, rateLimit: { limit, remaining, reset } };
  } catch (error) {
    return { error: error instanceof OcsError ? `${error.name}: ${error.message}` : String(error) };
  }
}

export interface CrossOriginResult {
  pageOrigin: string;
  apiOrigin: string;
  status: number;
  requestId: string | null;
  rateLimitLimit: string | null;
  /** The `Access-Control-*` headers of the answer: the worker's answers need none. */
  accessControl: string[];
}

async function callThroughWorker(): Promise<CrossOriginResult> {
  const mock = await createOcsMock({ seed: 5 });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  try {
    const response = await fetch(`${mock.baseUrl}/campaigns`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${mock.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': crypto.randomUUID(),
      },
      body: JSON.stringify({ name: 'Through the worker' }),
    });
    return {
      pageOrigin: location.origin,
      apiOrigin: new URL(mock.baseUrl).origin,
      status: response.status,
      requestId: response.headers.get('X-Request-ID'),
      rateLimitLimit: response.headers.get('RateLimit-Limit'),
      accessControl: [...response.headers.keys()].filter((name) => name.startsWith('access-control-')),
    };
  } finally {
    worker.stop();
  }
}

(globalThis as unknown as { callThroughWorker: () => Promise<string> }).callThroughWorker = async () =>
  JSON.stringify(await callThroughWorker());
(globalThis as unknown as { createWithSdk: typeof createWithSdk }).createWithSdk = createWithSdk;
