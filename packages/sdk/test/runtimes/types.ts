/**
 * What the runtime checks (`checks.js`) are given and what they report, shared by the
 * checks' JSDoc and the Vitest side (`runtimes.test.ts`).
 */
import type * as Webhooks from '@ocs/sdk/webhooks';

/** The check's input: where the scripted API listens and what it will answer. */
export interface RuntimeCheckInput {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The name `createCampaign` sends. */
  campaignName: string;
  /** Answers 429 with `Retry-After` once, then 200. */
  rateLimitedCampaignId: string;
  /** Answers 404 `CAMPAIGN_NOT_FOUND`. */
  missingCampaignId: string;
  /** Never answers. */
  hangingCampaignId: string;
  /** The campaign whose leads are listed, `pageSize` at a time. */
  leadsCampaignId: string;
  pageSize: number;
  /** The deadline of the call to the hanging campaign. */
  timeoutMs: number;
  /** The scripted API's probe: whether the hanging request's socket closed (plain fetch, not the SDK). */
  hangingClosedUrl: string;
  webhook: WebhookCheckInput;
}

/** A delivery signed in Node with node:crypto, for the verifier to check. */
export interface WebhookCheckInput {
  /** The receiver's URL, for the `Request` form. */
  url: string;
  /** The raw body as delivered. */
  body: string;
  /** `sha256=<hex>` of the body with `secret`. */
  signature: string;
  /** `sha256=<hex>` of the body with `otherSecret`. */
  wrongSignature: string;
  secret: string;
  /** A secret being rotated out: listed before `secret` in the several-secrets checks. */
  oldSecret: string;
  /** A secret that signed nothing here. */
  otherSecret: string;
}

/** Where the check runs, as the runtime itself says it (null: the runtime has no such global). */
export interface RuntimeIdentity {
  /** `process.versions.node` (Deno and Bun have one too, for compatibility). */
  node: string | null;
  deno: string | null;
  bun: string | null;
  /** `EdgeRuntime`, the global of Vercel's edge runtime. */
  edgeRuntime: string | null;
  userAgent: string | null;
  /** `typeof process`: a web runtime has none. */
  process: string;
}

/** A webhook entry the checks exercise: its module and, where the runtime can say, its URL. */
export interface WebhookEntry {
  /** `resolved` (what `@ocs/sdk/webhooks` resolves to) or `web` (the Web Crypto build, by path). */
  label: string;
  /** The URL the module was loaded from (`import.meta.resolve`), when the runtime has one. */
  url: string | undefined;
  module: typeof Webhooks;
}

/** One JSON line of the report: what a check observed, or the error that stopped it. */
export interface RuntimeCheckLine {
  check: string;
  observed?: Record<string, unknown>;
  error?: string;
}
