/** The options of `createOcsMock` and the shapes of the fixtures a test may pass. */
import type { CampaignInput, LeadInput, WebhookInput } from './api-types.ts';

/** The mock's notion of now (rate-limit windows, timestamps of what it creates, events). */
export interface Clock {
  now(): Date;
}

/** Rate limits of the mock's API key: the service's by default (100 per endpoint, 600 in total, a minute). */
export interface RateLimitOptions {
  /** Requests per window for one endpoint (method and route). Default 100. */
  perEndpoint?: number;
  /** Requests per window across every endpoint. Default 600. */
  total?: number;
  /** Window length in ms. Default 60,000; a short one makes `Retry-After` short in tests. */
  windowMs?: number;
}

/** A lead to create with `POST /leads` (`campaign_id` is filled in from its campaign). */
export type LeadFixture = Omit<LeadInput, 'campaign_id'>;

/**
 * A campaign to create with `POST /campaigns`, then (in this order) its senders, its
 * leads, its webhooks and its activation, each through the API.
 */
export interface CampaignFixture extends CampaignInput {
  /**
   * Sender accounts (`PUT /campaigns/{id}/senders`): account IDs, or `'auto'` for one
   * connected seeded account per channel the sequence uses, preferring accounts no active
   * campaign uses yet. Default: `'auto'` when `activate` is set, else none.
   */
  senders?: 'auto' | string[];
  /** Leads created and enrolled in this campaign. */
  leads?: LeadFixture[];
  /** Webhooks registered with `POST /campaigns/{id}/webhooks`. */
  webhooks?: WebhookInput[];
  /** Activate it (`PATCH` with `is_active: true`): the preflight must pass, as on the service. */
  activate?: boolean;
}

/** Data created through the API in place of the seeded campaigns and leads. */
export interface OcsMockFixtures {
  campaigns?: CampaignFixture[];
  /** Leads enrolled in no campaign. */
  leads?: LeadFixture[];
}

export interface OcsMockOptions {
  /**
   * Where the mock answers: the API's base URL, with or without the trailing `/v1`.
   * Default `https://api.ocs.test/v1` (a reserved name: a request that escapes the mock
   * fails instead of reaching a real service).
   */
  baseUrl?: string;
  /** Seed of the generated data: the same seed gives the same IDs, names and API key. Default 1. */
  seed?: number;
  /**
   * Campaigns and leads to create instead of the seeded ones (the organization, its
   * members, API key, sender accounts and pipeline are always seeded).
   */
  fixtures?: OcsMockFixtures;
  /** Rate limits of the API key. Default: the service's. */
  rateLimits?: RateLimitOptions;
  /** Default: the system clock. */
  clock?: Clock;
  /**
   * Accept `http://` and loopback webhook URLs, which the service refuses. Default false,
   * as on the service.
   */
  allowInsecureWebhooks?: boolean;
  /** The request journal (`mock.requests`). */
  journal?: JournalOptions;
}

export interface JournalOptions {
  /** How many requests are kept, the latest; older ones are dropped (and counted). Default 1,000; 0 records nothing. */
  limit?: number;
}
