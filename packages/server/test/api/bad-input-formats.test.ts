/**
 * IDs, times, numbers and bodies that the schemas' generic readings let through and a store
 * or `Date` then refused with a 500 (found by an attack on the running server): a UUID with
 * a `urn:uuid:` prefix, a time in year 0000 or after 9999, a leap second, a number past a
 * 64-bit float, a body that is not UTF-8 or is compressed. Each answers 400 or 415 in the
 * API's error body, the same on every store, and nothing is written. A UUID in upper case
 * names the same resource as in lower case, on every operation and store.
 */
import { expect, it } from 'vitest';
import { checkAgainstDocument, createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

interface Failure {
  success: false;
  error: string;
  message: string;
  details?: { errors: Array<{ field: string; message: string; type: string }> };
}

describeBackends('bad input: formats', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store(), { config: { sandbox: true } });
  };
  const createCampaign = async () => {
    const answer = await api.call<{ campaign: { id: string } }>('POST', '/v1/campaigns', { body: { name: 'Formats' } });
    expect(answer.status).toBe(201);
    return answer.body.campaign.id;
  };
  const createLead = async (body: Record<string, unknown> = {}) => {
    const answer = await api.call<{ lead: { id: string; enrolments: Array<{ campaign_id: string }> } }>(
      'POST',
      '/v1/leads',
      { body: { email: `${crypto.randomUUID()}@example.com`, ...body } },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.lead;
  };
  const leadCount = async () => (await api.call<{ total: number }>('GET', '/v1/leads?limit=1')).body.total;
  const issuesOf = (body: Failure) => body.details?.errors.map(({ field, type }) => ({ field, type }));

  it('answers a UUID with a urn:uuid: prefix as no ID: 404 in a path, 400 in a query or a body', async () => {
    await setup();
    const campaignId = await createCampaign();
    const urn = `urn:uuid:${campaignId}`;
    const inPath = await api.call<Failure>('GET', `/v1/campaigns/${urn}`);
    expect([inPath.status, inPath.body.error]).toEqual([404, 'NOT_FOUND']);
    const inQuery = await api.call<Failure>('GET', `/v1/leads?campaign_id=${urn}`);
    expect([inQuery.status, issuesOf(inQuery.body)]).toEqual([400, [{ field: 'query.campaign_id', type: 'format' }]]);
    const before = await leadCount();
    for (const body of [
      { email: 'urn@example.com', campaign_id: urn.toUpperCase() },
      { leads: [{ email: 'urn@example.com', campaign_id: urn }] },
    ]) {
      const inBody = await api.call<Failure>('POST', '/v1/leads', { body });
      expect([inBody.status, inBody.body.error], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const deal = await api.call<Failure>('POST', '/v1/crm/deals', {
      body: { name: 'D', lead_id: `URN:UUID:${campaignId}` },
    });
    expect([deal.status, issuesOf(deal.body)]).toEqual([400, [{ field: 'body.lead_id', type: 'format' }]]);
    expect(await leadCount()).toBe(before);
  });

  it('finds the same resource by a UUID in upper case, in paths, queries and bodies', async () => {
    await setup();
    const campaignId = await createCampaign();
    const upper = campaignId.toUpperCase();
    const read = await api.call<{ campaign: { id: string } }>('GET', `/v1/campaigns/${upper}`);
    expect([read.status, read.body.campaign?.id]).toEqual([200, campaignId]);
    const lead = await createLead({ campaign_id: upper });
    expect(lead.enrolments.map((enrolment) => enrolment.campaign_id)).toEqual([campaignId]);
    const batch = await api.call<{ results: Array<{ status: number }> }>('POST', '/v1/leads', {
      body: { leads: [{ email: `${crypto.randomUUID()}@example.com`, campaign_id: upper }] },
    });
    expect(batch.body.results?.map((result) => result.status)).toEqual([201]);
    const listed = await api.call<{ total: number }>('GET', `/v1/leads?campaign_id=${upper}`);
    expect([listed.status, listed.body.total]).toEqual([200, 2]);
    const byId = await api.call<{ lead: { id: string } }>('GET', `/v1/leads/${lead.id.toUpperCase()}`);
    expect([byId.status, byId.body.lead?.id]).toEqual([200, lead.id]);
    const deal = await api.call<{ deal: { lead_id: string } }>('POST', '/v1/crm/deals', {
      body: { name: 'Upper', lead_id: lead.id.toUpperCase() },
    });
    expect([deal.status, deal.body.deal?.lead_id]).toEqual([201, lead.id]);
    const deals = await api.call<{ total: number }>('GET', `/v1/crm/deals?lead_id=${lead.id.toUpperCase()}`);
    expect(deals.body.total).toBe(1);
  });

  it('refuses times outside years 1 to 9999 and times Date cannot read, and keeps those at the edges', async () => {
    await setup();
    const campaignId = await createCampaign();
    const lead = await createLead({ campaign_id: campaignId });
    const deal = (expected_close_date: string) =>
      api.call<Failure & { deal: { expected_close_date: string } }>('POST', '/v1/crm/deals', {
        body: { name: 'Dated', expected_close_date },
      });
    for (const time of [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:30:00+01:00', // 0000-12-31T23:30Z
      '9999-12-31T23:59:59-01:00', // 10000-01-01T00:59:59Z
      '2027-12-31T23:59:60Z', // a leap second
      '2026-01-01T00:00:00+01', // an offset without minutes
    ]) {
      const answer = await deal(time);
      expect([answer.status, issuesOf(answer.body)], time).toEqual([
        400,
        [{ field: 'body.expected_close_date', type: 'format' }],
      ]);
    }
    for (const [time, stored] of [
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000+00:00'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999+00:00'],
    ]) {
      const answer = await deal(time as string);
      expect([answer.status, answer.body.deal?.expected_close_date], time).toEqual([201, stored]);
    }
    const engagement = await api.call<Failure>('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, {
      body: { lead_id: lead.id, kind: 'meeting_booked', start_time: '2027-12-31T23:59:60Z' },
    });
    expect([engagement.status, issuesOf(engagement.body)]).toEqual([
      400,
      [{ field: 'body.start_time', type: 'format' }],
    ]);
    const clock = await api.call<Failure>('POST', '/v1/sandbox/clock/advance', {
      body: { to: '2027-12-31T23:59:60Z' },
    });
    expect([clock.status, issuesOf(clock.body)]).toEqual([400, [{ field: 'body.to', type: 'format' }]]);
    for (const report of ['analysis', 'daily-stats', 'step-funnel', 'ab-cohorts']) {
      const answer = await api.call<Failure>(
        'GET',
        `/v1/campaigns/${campaignId}/${report}?date_filter=0000-01-01T00:00:00Z`,
      );
      expect([answer.status, answer.body.error], report).toEqual([400, 'INVALID_DATE_FILTER']);
      expect(answer.body.message, report).toContain('years 0001 to 9999');
    }
    for (const [query, field] of [
      ['bookings?since=0000-01-01', 'query.since'],
      ['queue?before=0000-01-01T00:00:00Z', 'query.before'],
    ]) {
      const answer = await api.call<Failure>('GET', `/v1/campaigns/${campaignId}/${query}`);
      expect([answer.status, issuesOf(answer.body)], query).toEqual([400, [{ field, type: 'format' }]]);
    }
  });

  it('refuses a body number past a 64-bit float instead of storing it as null', async () => {
    await setup();
    const campaignId = await createCampaign();
    const send = (method: string, path: string, rawBody: string) => api.call<Failure>(method, path, { rawBody });
    const cases: Array<[string, string, string, { field: string; type: string }]> = [
      ['POST', '/v1/crm/deals', '{"name":"Big","value":1e400}', { field: 'body.value', type: 'maximum' }],
      ['POST', '/v1/crm/deals', '{"name":"Small","value":-1e400}', { field: 'body.value', type: 'minimum' }],
      [
        'PATCH',
        `/v1/campaigns/${campaignId}`,
        '{"custom_fields":{"score":[1,2e999]}}',
        { field: 'body.custom_fields.score[1]', type: 'maximum' },
      ],
    ];
    for (const [method, path, rawBody, issue] of cases) {
      const answer = await send(method, path, rawBody);
      expect([answer.status, issuesOf(answer.body)], rawBody).toEqual([400, [issue]]);
    }
    const deals = await api.call<{ total: number }>('GET', '/v1/crm/deals');
    expect(deals.body.total).toBe(0);
  });

  it('reads a body only as UTF-8 and uncompressed', async () => {
    await setup();
    const send = async (bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string>) => {
      const response = await api.app.fetch(
        new Request('http://localhost/v1/campaigns', {
          method: 'POST',
          headers: { Authorization: `Bearer ${api.key}`, 'Content-Type': 'application/json', ...headers },
          body: bytes,
        }),
      );
      const body = (await response.json()) as Failure;
      checkAgainstDocument('POST', '/v1/campaigns', response, body);
      return { status: response.status, body };
    };
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('{"name":"Caf'),
      0xe9,
      ...new TextEncoder().encode('"}'),
    ]);
    const notUtf8 = await send(latin1, {});
    expect([notUtf8.status, notUtf8.body.details?.errors]).toEqual([
      400,
      [{ field: 'body', message: 'is not valid UTF-8', type: 'invalid_json' }],
    ]);
    // The media type is told first: a form is refused as a form, whatever its bytes.
    const form = await send(latin1, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.body.error]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const json = new TextEncoder().encode(JSON.stringify({ name: 'Café' }));
    const gzip = await send(json, { 'Content-Encoding': 'gzip' });
    expect([gzip.status, gzip.body.error]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(gzip.body.message).toContain('uncompressed');
    expect((await send(json, { 'Content-Encoding': 'identity' })).status).toBe(201);
    const campaigns = await api.call<{ campaigns: Array<{ name: string }> }>('GET', '/v1/campaigns');
    expect(campaigns.body.campaigns.map((campaign) => campaign.name)).toEqual(['Café']);
  });
});
