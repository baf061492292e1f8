/**
 * Types of withResponse / asResponse, extra headers, debug logging and `attempts` on errors.
 * Checked by `npm run lint` (tsc); nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  asResponse,
  createCampaign,
  createClient,
  getCampaign,
  withResponse,
  type ClientOptions,
  type OcsApiError,
  type OcsClient,
  type OperationResult,
} from '../src/index.ts';

declare const client: OcsClient;
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';

describe('raw Response', () => {
  it('withResponse resolves to the typed result and a Response', () => {
    expectTypeOf(withResponse(getCampaign, client, { campaign_id })).resolves.toEqualTypeOf<{
      data: OperationResult<'getCampaign'>;
      response: Response;
    }>();
  });

  it('asResponse resolves to a Response', () => {
    expectTypeOf(asResponse(getCampaign, client, { campaign_id })).resolves.toEqualTypeOf<Response>();
  });

  it("both check the operation's params and options", () => {
    // @ts-expect-error campaign_id is required
    void withResponse(getCampaign, client, {});
    // @ts-expect-error getCampaign takes no idempotencyKey
    void asResponse(getCampaign, client, { campaign_id }, { idempotencyKey: 'k' });
    void asResponse(createCampaign, client, { name: 'Q4' }, { idempotencyKey: 'k' });
  });
});

describe('options', () => {
  it('headers per client and per call, debug and a logger with debug', () => {
    expectTypeOf<ClientOptions['headers']>().toEqualTypeOf<Record<string, string> | undefined>();
    expectTypeOf<ClientOptions['debug']>().toEqualTypeOf<boolean | undefined>();
    createClient({ debug: true, logger: { warn: () => {}, debug: () => {} }, headers: { 'X-Team': 'growth' } });
    void getCampaign(client, { campaign_id }, { headers: { 'X-Call': '1' }, maxRetries: 0 });
  });

  it('errors say how many attempts were made', () => {
    expectTypeOf<OcsApiError['attempts']>().toEqualTypeOf<number>();
  });
});

describe('ClientOptions.fetch', () => {
  it('takes a fetch of the global shape, and refuses one that takes only a URL string', () => {
    createClient({ fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) });
    // @ts-expect-error the path API and hooked calls pass a Request: a string-only fetch cannot take it
    createClient({ fetch: (url: string, init?: RequestInit) => fetch(url, init) });
  });
});
