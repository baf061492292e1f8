/**
 * The input of the runtime checks and the script of the API they call, made together so that
 * both sides agree: the IDs the scripted API answers for, the leads it pages through, and a
 * webhook delivery signed here with node:crypto, independently of either verifier build.
 */
import { createHmac } from 'node:crypto';
import type { RuntimeCheckInput } from '../runtimes/types.ts';
import { exampleEvent } from './event.ts';
import { hangingClosedPath, type RuntimeApiScript } from './runtime-api.ts';

const hmac = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Eight leads in pages of three: three pages, the last one short. */
export const leadIds = Array.from(
  { length: 8 },
  (_, i) => `5b8d1e3f-7a2c-4d6e-9f1b-${String(i + 1).padStart(12, '0')}`,
);

const ids = {
  rateLimitedCampaignId: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14',
  missingCampaignId: '7f1e2d3c-4b5a-4697-8e1d-2c3b4a5f6e7d',
  hangingCampaignId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  leadsCampaignId: '1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a',
};

/** What the scripted API answers, with the page's origin for CORS when there is a page. */
export function runtimeApiScript(allowedOrigin?: string): RuntimeApiScript {
  return { ...ids, leadIds, ...(allowedOrigin !== undefined && { allowedOrigin }) };
}

/** The checks' input against the scripted API at `baseUrl`. */
export function runtimeCheckInput(baseUrl: string): RuntimeCheckInput {
  const secret = 'whsec_runtime_current_0123456789';
  const otherSecret = 'whsec_runtime_other_0123456789';
  const body = JSON.stringify(exampleEvent());
  return {
    baseUrl,
    apiKey: 'ocs_runtime0000000000000000000000000000000',
    campaignName: 'Fintech CFOs (runtime check)',
    ...ids,
    pageSize: 3,
    timeoutMs: 300,
    hangingClosedUrl: new URL(hangingClosedPath, baseUrl).href,
    webhook: {
      url: 'https://receiver.example.com/hooks/ocs',
      body,
      signature: hmac(secret, body),
      wrongSignature: hmac(otherSecret, body),
      secret,
      oldSecret: 'whsec_runtime_rotated_out_0123',
      otherSecret,
    },
  };
}
