/**
 * The values the server makes itself (times, generated webhook signing secrets, connect-link
 * URLs) have the same form in the document's examples as in the server's answers: users copy
 * the examples' forms into parsers, validators and fixtures. Each form is written once here,
 * checked first on answers the server really gives (so that it cannot drift from the server
 * unnoticed), then on every example of what the server writes: the examples of responses, and
 * of the `prospect_response` webhook it sends. Request examples (what a client sends) are
 * left out: the server takes any ISO 8601 time there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createTestApi } from '../support/api.ts';
import { createCampaign, replyAwaitingDelivery, tickingClock } from '../support/campaign-setup.ts';
import { fakeTransport } from '../support/fake-transport.ts';

/** A time as the API answers it (`toApiTime`): UTC, milliseconds, `+00:00`. */
const apiTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
/** The `prospect_response` event's `timestamp` (section 6: with microseconds): a millisecond time padded with `000`. */
const eventTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000\+00:00$/;
/** A signing secret the service generates: `whsec_` and 32 random bytes in base64url. */
const generatedSecret = /^whsec_[A-Za-z0-9_-]{43}$/;
/** The path of a connect link: `/connect/` and its token, `cl_` and 24 base62 characters. */
const connectLinkPath = /^\/connect\/cl_[A-Za-z0-9]{24}$/;

type Node = Record<string, unknown>;
interface Leaf {
  at: string;
  key: string;
  value: string;
}

/** Every string of `value`, with where it is and the key it is under. */
function strings(value: unknown, path: string[] = [], found: Leaf[] = []): Leaf[] {
  if (typeof value === 'string') found.push({ at: path.join('.'), key: path.at(-1) ?? '', value });
  else if (Array.isArray(value)) value.forEach((item, i) => strings(item, [...path, String(i)], found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) strings(item, [...path, key], found);
  }
  return found;
}

/** A whole value that is a date-time (texts that quote one, like messages, are not). */
const isTime = (leaf: Leaf) => /^\d{4}-\d\d-\d\dT/.test(leaf.value);
/** The form a time must have: the event's `timestamp`, or every other time of the API. */
const timeForm = (leaf: Leaf) => (leaf.key === 'timestamp' ? eventTime : apiTime);
const offForm = (leaves: Leaf[]) =>
  leaves
    .filter(isTime)
    .filter((leaf) => !timeForm(leaf).test(leaf.value))
    .map((leaf) => `${leaf.at}: ${leaf.value}`);

/** Where an example is: under `examples` or `example`. */
const inExample = (at: string) => /(^|\.)examples?(\.|$)/.test(at);
/** The strings of the examples of what the server writes: responses, and the webhook it sends. */
const written = strings(openApiDocument).filter(
  ({ at }) =>
    inExample(at) &&
    (at.startsWith('webhooks.') || (/\.responses\./.test(at) && !/\.(requestBody|parameters)\./.test(at))),
);

describe('the server writes these forms', () => {
  let answers: Leaf[];

  beforeAll(async () => {
    // Milliseconds that are not 000, so that a form with fewer digits would show.
    const clock = new SandboxClock(tickingClock('2026-11-06T10:00:00.083Z'));
    const api = await createTestApi(createMemoryStore(), {
      clock,
      config: { sandbox: true },
      webhookTransport: fakeTransport(clock),
    });
    const campaignId = await replyAwaitingDelivery(api);
    const get = async (path: string) => (await api.call('GET', path)).body;
    const webhook = await api.call('POST', `/v1/campaigns/${await createCampaign(api)}/webhooks`, {
      body: { webhook_url: 'https://hooks.example.com/generated' },
    });
    const link = await api.call('POST', '/v1/accounts/connect-link', { body: { platform: 'linkedin' } });
    answers = strings({
      campaign: await get(`/v1/campaigns/${campaignId}`),
      leads: await get(`/v1/leads?campaign_id=${campaignId}`),
      accounts: await get('/v1/accounts'),
      deliveries: await get(`/v1/sandbox/campaigns/${campaignId}/deliveries`),
      clock: await get('/v1/sandbox/clock'),
      webhook: webhook.body,
      link: link.body,
    });
  });

  it('times: milliseconds and +00:00; the event timestamp: milliseconds padded to microseconds', () => {
    const times = answers.filter(isTime);
    expect(times.filter((leaf) => leaf.key === 'timestamp').length, 'a delivery payload').toBeGreaterThan(0);
    expect(times.filter((leaf) => leaf.key !== 'timestamp').length).toBeGreaterThan(5);
    expect(offForm(answers)).toEqual([]);
  });

  it('a generated webhook secret, and a connect link', () => {
    const secrets = answers.filter((leaf) => leaf.value.startsWith('whsec_'));
    expect(secrets.map((leaf) => leaf.value)).toEqual([expect.stringMatching(generatedSecret)]);
    const url = answers.find((leaf) => leaf.at === 'link.url');
    expect(new URL(url?.value ?? 'about:blank').pathname).toMatch(connectLinkPath);
  });
});

describe('the examples of what the server writes have its forms', () => {
  it('every time', () => {
    expect(written.filter(isTime).length).toBeGreaterThan(100);
    expect(offForm(written)).toEqual([]);
  });

  it('every generated webhook signing secret', () => {
    // In any example at all: a caller's own secrets do not start with whsec_.
    const secrets = strings(openApiDocument).filter((leaf) => inExample(leaf.at) && leaf.value.startsWith('whsec_'));
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret.value, secret.at).toMatch(generatedSecret);
  });

  it('every connect-link URL', () => {
    const operation = (openApiDocument.paths['/accounts/connect-link'] as Node).post as Node;
    const created = (operation.responses as Node)['201'] as Node;
    const examples = ((created.content as Node)['application/json'] as Node).examples as Node;
    const urls = Object.values(examples).map((example) => ((example as Node).value as Node).url as string);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(new URL(url).pathname, url).toMatch(connectLinkPath);
  });
});
