/**
 * The option types under `exactOptionalPropertyTypes: true` (this folder's tsconfig.json, which
 * `npm run lint` compiles besides the package's own): an optional option accepts `undefined`,
 * as the runtime does (it reads each with `??` or a default), so that forwarding a value that
 * may be unset compiles: `createOcs({ apiKey: process.env.OCS_API_KEY })`, the README's own
 * example. It imports the package by name, so it checks the published declarations (dist/),
 * as an application compiles them; the package's sources are not written for that flag.
 * Nothing here runs.
 */
import {
  createCampaign,
  createClient,
  createOcs,
  getCampaign,
  importLeads,
  listLeads,
  paginate,
  type CallOptions,
  type ClientOptions,
  type IdempotentCallOptions,
  type Logger,
  type PaginateOptions,
} from '@ocs/sdk';
import { Ocs } from '@ocs/sdk/resources';
import { createDeduplicator, createMemoryStore, createSignedRequest, verifyAndParse } from '@ocs/sdk/webhooks';
import { createFetchHandler } from '@ocs/sdk/webhooks/fetch';
import { describe, expectTypeOf, it } from 'vitest';

declare const env: Record<string, string | undefined>;
declare const maybeString: string | undefined;
declare const maybeNumber: number | undefined;
declare const maybeSignal: AbortSignal | undefined;
declare const maybeHeaders: Record<string, string> | undefined;
declare const campaign_id: string;

describe('under exactOptionalPropertyTypes, the options accept undefined', () => {
  it('createClient, createOcs and Ocs', () => {
    const options: ClientOptions = {
      apiKey: env.OCS_API_KEY,
      baseUrl: env.OCS_BASE_URL,
      timeoutMs: maybeNumber,
      maxRetries: maybeNumber,
      maxRetryAfterMs: maybeNumber,
      headers: maybeHeaders,
      debug: undefined,
      logger: undefined,
      fetch: undefined,
      validate: undefined,
    };
    createClient(options);
    createClient({ apiKey: env.OCS_API_KEY, baseUrl: env.OCS_BASE_URL });
    createOcs({ apiKey: env.OCS_API_KEY });
    new Ocs({ apiKey: env.OCS_API_KEY, baseUrl: env.OCS_BASE_URL });
    const logger: Logger = { warn: () => {}, debug: undefined };
    createClient({ logger });
  });

  it('a call, an idempotent call, and a paginator', async () => {
    const client = createClient();
    const call: CallOptions = {
      signal: maybeSignal,
      timeoutMs: maybeNumber,
      maxRetries: maybeNumber,
      headers: maybeHeaders,
      requestId: maybeString,
    };
    await getCampaign(client, { campaign_id }, call);
    await getCampaign(client, { campaign_id }, { signal: maybeSignal, timeoutMs: maybeNumber });
    const idempotent: IdempotentCallOptions = { ...call, idempotencyKey: maybeString };
    await createCampaign(client, { name: 'Fintech CFOs' }, idempotent);
    await importLeads(client, [], { idempotencyKey: maybeString });
    const paging: PaginateOptions = { pageSize: maybeNumber, maxItems: maybeNumber, signal: maybeSignal };
    paginate(client, listLeads, { campaign_id }, paging);
    paginate(client, listLeads, { campaign_id }, { maxItems: undefined });
    const ocs = createOcs(client);
    ocs.paginate.listLeads({ campaign_id }, { pageSize: maybeNumber });
    new Ocs(client).leads.list({ campaign_id }).paginate({ maxItems: maybeNumber });
  });

  it('the webhooks: verifier, deduplicator, signed requests, receivers', async () => {
    await verifyAndParse(new Request('http://127.0.0.1/'), { secret: 's', schema: undefined });
    createDeduplicator({ store: undefined, ttlMs: maybeNumber, leaseMs: maybeNumber });
    createMemoryStore({ maxEntries: maybeNumber });
    await createSignedRequest('http://127.0.0.1/', {} as never, 's', { headers: undefined });
    const handler = createFetchHandler({
      secret: 's',
      onEvent: () => {},
      schema: undefined,
      dedupe: undefined,
      onError: undefined,
      maxBodyBytes: maybeNumber,
    });
    expectTypeOf(handler).returns.resolves.toEqualTypeOf<Response>();
  });

  it('still refuses what is not an option', () => {
    // @ts-expect-error not an option (`timeoutMs` is)
    createClient({ timeout: 5 });
    // @ts-expect-error a string is not a number, exact or not
    createClient({ timeoutMs: maybeString });
  });
});
