/**
 * The request journal (`mock.requests`) behind MSW: what each entry holds (operation, path
 * and query parameters, parsed body, headers with the key redacted, the answer, the time),
 * filtering by operation, webhook secrets redacted, bounds (`journal.limit`, `dropped`),
 * `reset()`, and an erased lead leaving every entry (markers, as the server's
 * erasure-everywhere test does).
 */
import {
  advanceSandboxClock,
  createCampaign,
  createLead,
  createWebhook,
  deleteLead,
  getCampaign,
  getLead,
  importLeads,
  listLeads,
  listSandboxMessages,
  setWebhookSecret,
  simulateReply,
  updateLead,
} from '@ocs/sdk';
import { describe, expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 8 });
const campaign = mock.data.campaigns[0];
if (!campaign) throw new Error('seeded data missing');

describe('entries', () => {
  it('records each request with its operation, parameters, body, redacted headers and answer, in order', async () => {
    const before = Date.now();
    const created = await createCampaign(client(), { name: 'Journaled' }, { idempotencyKey: 'key-1' });
    await listLeads(client(), { campaign_id: campaign.id, limit: 5 });
    await getCampaign(client(), { campaign_id: campaign.id });

    const all = mock.requests.all();
    expect(all.map((entry) => [entry.seq, entry.operationId])).toEqual([
      [1, 'createCampaign'],
      [2, 'listLeads'],
      [3, 'getCampaign'],
    ]);
    const [create, list, get] = all;
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/campaigns',
      params: {},
      query: {},
      body: { name: 'Journaled' },
      fault: null,
      response: { status: 201, body: { success: true, campaign_id: created.campaign_id } },
    });
    expect(create?.headers).toMatchObject({
      authorization: 'Bearer [redacted]',
      'content-type': 'application/json',
      'idempotency-key': 'key-1',
    });
    expect(create?.response?.headers['x-request-id']).toBe(created.requestId);
    expect(Date.parse(create?.time ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(create?.durationMs).toBeGreaterThanOrEqual(0);
    expect(list).toMatchObject({ query: { campaign_id: campaign.id, limit: '5' }, body: undefined });
    expect(get).toMatchObject({ path: `/v1/campaigns/${campaign.id}`, params: { campaign_id: campaign.id } });
    // The key is nowhere, in any form.
    expect(JSON.stringify(all)).not.toContain(mock.apiKey);
  });

  it('filters by operation, typed by it, and gives the latest', async () => {
    await createCampaign(client(), { name: 'One' });
    await listLeads(client());
    await createCampaign(client(), { name: 'Two' });
    const creates = mock.requests.of('createCampaign');
    expect(creates.map((entry) => entry.body?.name)).toEqual(['One', 'Two']);
    expect(mock.requests.last('createCampaign')?.body?.name).toBe('Two');
    expect(mock.requests.last()?.operationId).toBe('createCampaign');
    expect(mock.requests.of('deleteLead')).toEqual([]);
    // @ts-expect-error not an operationId
    expect(() => mock.requests.of('launchRocket')).toThrow(/unknown operationId "launchRocket"/);
  });

  it('records error answers, scenario answers and requests no operation matches', async () => {
    mock.scenarios.fail('getCampaign', { status: 404, code: 'CAMPAIGN_NOT_FOUND' });
    await getCampaign(client(), { campaign_id: campaign.id }).catch(() => undefined);
    const unmatched = await fetch(`${mock.baseUrl}/no-such-path?x=1`, {
      headers: { Authorization: `Bearer ${mock.apiKey}` },
    });
    const malformed = await fetch(`${mock.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
      body: '{"name": ',
    });
    const [scenario, noOperation, refused] = mock.requests.all();
    expect(scenario).toMatchObject({
      operationId: 'getCampaign',
      response: { status: 404, body: { error: 'CAMPAIGN_NOT_FOUND' } },
    });
    expect(noOperation).toMatchObject({
      operationId: null,
      path: '/v1/no-such-path',
      query: { x: '1' },
      response: { status: unmatched.status },
    });
    // A body that is not JSON is kept as its text.
    expect(refused).toMatchObject({ body: '{"name": ', response: { status: malformed.status } });
    expect(malformed.status).toBe(400);
  });

  it('never keeps a webhook signing secret, given or generated', async () => {
    const given = 'whsec_journal_given_0123456789';
    const { webhook_id } = await createWebhook(client(), {
      campaign_id: campaign.id,
      webhook_url: 'https://hooks.example.com/ocs',
      secret: given,
    });
    const rotated = await setWebhookSecret(client(), { campaign_id: campaign.id, webhook_id: webhook_id ?? '' });
    const generated = rotated.secret;
    expect(generated).toMatch(/\S{16,}/);
    expect(mock.requests.of('createWebhook')[0]?.body?.secret).toBe('[redacted]');
    const answer = mock.requests.of('setWebhookSecret')[0]?.response;
    expect(answer?.status === 200 && answer.body.secret).toBe('[redacted]');
    const text = JSON.stringify(mock.requests.all());
    expect(text).not.toContain(given);
    expect(text).not.toContain(generated);
  });

  it('keeps no secret from a body that is not JSON: such a body that mentions one is redacted whole', async () => {
    const secret = 'whsec_journal_malformed_0123456789';
    const send = (body: string) =>
      fetch(`${mock.baseUrl}/campaigns/${campaign.id}/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
        body,
      });
    const unclosed = await send(`{"webhook_url":"https://hooks.example.com/f","secret":"${secret}"`);
    const singleQuoted = await send(`{'secret': '${secret}'}`);
    const bare = await send(`token=${secret}`);
    expect([unclosed.status, singleQuoted.status, bare.status]).toEqual([400, 400, 400]);
    expect(mock.requests.of('createWebhook').map((entry) => entry.body)).toEqual([
      '[redacted]',
      '[redacted]',
      '[redacted]',
    ]);
    expect(JSON.stringify(mock.requests.all())).not.toContain('journal_malformed');
    // Text that mentions no secret is kept, to show what was sent.
    await send('{"webhook_url": ');
    expect(mock.requests.last('createWebhook')?.body).toBe('{"webhook_url": ');
  });
});

describe('bounds and reset', () => {
  it('keeps the last `limit` entries and counts those dropped; reset() clears and counts afresh', async () => {
    const small = await createOcsMock({ seed: 8, journal: { limit: 3 } });
    // Through mock.fetch: a second MSW server in this process would share the first's interception.
    const smallClient = client({
      apiKey: small.apiKey,
      baseUrl: small.baseUrl,
      fetch: (input, init) => small.fetch(new Request(input, init)),
    });
    for (let i = 0; i < 5; i++) await createCampaign(smallClient, { name: `C${i}` });
    expect(small.requests.limit).toBe(3);
    expect(small.requests.dropped).toBe(2);
    const kept = small.requests
      .all()
      .map((entry) => [entry.seq, entry.operationId === 'createCampaign' && entry.body?.name]);
    expect(kept).toEqual([
      [3, 'C2'],
      [4, 'C3'],
      [5, 'C4'],
    ]);
    small.reset();
    expect(small.requests.all()).toEqual([]);
    expect(small.requests.dropped).toBe(0);
    await createCampaign(smallClient, { name: 'After' });
    expect(small.requests.all().map((entry) => entry.seq)).toEqual([1]);
  });

  it('records nothing with limit 0, and refuses a limit that is not a whole number', async () => {
    const off = await createOcsMock({ seed: 8, journal: { limit: 0 } });
    const response = await off.fetch(
      new Request(`${off.baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${off.apiKey}` } }),
    );
    expect(response.status).toBe(200);
    expect(off.requests.all()).toEqual([]);
    await expect(createOcsMock({ journal: { limit: -1 } })).rejects.toThrow(/journal.limit must be a whole number/);
  });

  it('clear() forgets the entries without resetting the data', async () => {
    await createCampaign(client(), { name: 'Kept' });
    mock.requests.clear();
    expect(mock.requests.all()).toEqual([]);
    await getCampaign(client(), { campaign_id: campaign.id });
    expect(mock.requests.all().map((entry) => entry.seq)).toEqual([1]);
  });
});

/** Unique, lower-case markers, one per personal value of the lead (numbers too). */
function markers() {
  const tag = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
  const m = (field: string) => `zq${tag}${field}`;
  return {
    email: `${m('email')}@${m('domain')}.example`,
    newEmail: `${m('newemail')}@${m('domain')}.example`,
    first_name: m('first'),
    last_name: m('last'),
    company: m('company'),
    title: m('title'),
    website: `https://${m('website')}.example`,
    custom_note: m('customnote'),
    employee_count: 7_345_991,
    annual_revenue: 9_182_736,
  };
}

describe('erasure', () => {
  it("takes out the lead's conversation (its reply, the messages sent to it), also when the DELETE names it in upper case", async () => {
    const m = markers();
    const created = await createLead(client(), { campaign_id: campaign.id, email: m.email, first_name: m.first_name });
    const leadId = created.lead.id;
    await advanceSandboxClock(client(), { seconds: 1 });
    const sent = await listSandboxMessages(client(), { campaign_id: campaign.id, lead_id: leadId, limit: 100 });
    const bodies = sent.messages.map((message) => message.body);
    expect(bodies.length).toBeGreaterThan(0);
    // Words of the prospect's own: no lead field holds them.
    const reply = `Thanks, call me on ${m.custom_note} next week`;
    await simulateReply(client(), { campaign_id: campaign.id, lead_id: leadId, channel: 'email', message: reply });
    const texts = [reply, ...bodies];
    for (const text of texts) expect(JSON.stringify(mock.requests.all())).toContain(JSON.stringify(text).slice(1, -1));

    const erased = await fetch(`${mock.baseUrl}/leads/${leadId.toUpperCase()}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${mock.apiKey}` },
    });
    expect(erased.status).toBe(200);

    const after = JSON.stringify(mock.requests.all());
    for (const value of [m.email, m.first_name, reply, m.custom_note]) expect(after, value).not.toContain(value);
    for (const body of bodies) expect(after).not.toContain(JSON.stringify(body).slice(1, -1));
    expect(mock.requests.of('simulateReply')[0]?.body).toMatchObject({ message: null, lead_id: leadId });
  });

  it("erases a short reply in the lead's own entries only, and another lead's words stay", async () => {
    const lead = async (email: string) => (await createLead(client(), { campaign_id: campaign.id, email })).lead.id;
    const [erased, kept] = [await lead('short.reply@example.com'), await lead('other.reply@example.com')];
    // A reply needs a message sent first.
    await advanceSandboxClock(client(), { seconds: 1 });
    const reply = (leadId: string, message: string) =>
      simulateReply(client(), { campaign_id: campaign.id, lead_id: leadId, channel: 'email', message });
    await reply(erased, 'Yes');
    await reply(kept, 'Yes please, send the deck');
    await deleteLead(client(), { lead_id: erased });

    const replies = mock.requests.of('simulateReply').slice(-2);
    expect(replies[0]?.body).toMatchObject({ lead_id: erased, message: null });
    expect(replies[0]?.response?.body).toMatchObject({ reply: { lead_id: erased, prospect_message: null } });
    expect(replies[1]?.body).toMatchObject({ lead_id: kept, message: 'Yes please, send the deck' });
    expect(replies[1]?.response?.body).toMatchObject({ reply: { prospect_message: 'Yes please, send the deck' } });
  });

  it("an erased lead's data leaves every entry: its own requests and answers, lists, queries, messages", async () => {
    const m = markers();
    const other = { email: 'someone.else@example.com', first_name: 'Someone' };
    const created = await createLead(client(), {
      campaign_id: campaign.id,
      email: m.email,
      first_name: m.first_name,
      last_name: m.last_name,
      company: m.company,
      title: m.title,
      website: m.website,
      employee_count: m.employee_count,
      annual_revenue: m.annual_revenue,
      custom_fields: { note: m.custom_note },
    });
    const leadId = created.lead.id;
    // Its email changes: the journal still holds the first one, which must go too.
    await updateLead(client(), { lead_id: leadId, email: m.newEmail });
    await getLead(client(), { lead_id: leadId });
    await listLeads(client(), { email: m.newEmail });
    await listLeads(client(), { campaign_id: campaign.id, limit: 100 });
    // A batch with the lead (left unchanged) and someone else, who must stay.
    await importLeads(client(), [{ email: m.newEmail }, other]);
    // The seeded campaign writes to it: the rendered message names it.
    await advanceSandboxClock(client(), { seconds: 1 });
    await listSandboxMessages(client(), { campaign_id: campaign.id, lead_id: leadId, limit: 100 });

    const values = Object.values(m).map(String);
    const before = JSON.stringify(mock.requests.all());
    for (const value of values) expect(before).toContain(value);
    const count = mock.requests.all().length;

    await deleteLead(client(), { lead_id: leadId });

    const after = JSON.stringify(mock.requests.all());
    for (const value of values) expect(after, value).not.toContain(value);
    // Entries stay (the erasure rewrites, it does not forget requests), and others' data stays.
    expect(mock.requests.all()).toHaveLength(count + 1);
    expect(after).toContain(other.email);
    // Its own request bodies are erased as the lead row is, numbers included.
    expect(mock.requests.of('createLead')[0]?.body).toMatchObject({
      email: null,
      first_name: null,
      employee_count: null,
      annual_revenue: null,
      campaign_id: campaign.id,
    });
    expect(mock.requests.of('updateLead')[0]?.body).toMatchObject({ email: null });
    expect(mock.requests.of('listLeads')[0]?.query).toEqual({ email: '[erased]' });
  });

  it("a body sent to the lead's path, with a method it does not have or the ID in upper case, is the lead's too", async () => {
    const m = markers();
    const created = await createLead(client(), { campaign_id: campaign.id, email: m.email });
    const leadId = created.lead.id;
    // PUT is no operation of /v1/leads/{lead_id}: the entry has no operation and no params.
    const wrongMethod = await fetch(`${mock.baseUrl}/leads/${leadId.toUpperCase()}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'Zebulon', last_name: 'Quixote', employee_count: 4242 }),
    });
    expect(wrongMethod.status).toBeGreaterThanOrEqual(400);
    const entry = () => mock.requests.all().find((e) => e.method === 'PUT');
    expect(entry()?.operationId).toBeNull();
    expect(entry()?.body).toMatchObject({ first_name: 'Zebulon' });

    // An operation's path with the ID in upper case: a PATCH refused (400) keeps its body.
    const refused = await fetch(`${mock.baseUrl}/leads/${leadId.toUpperCase()}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'ZebulonPatch', employee_count: 'many' }),
    });
    expect(refused.status).toBe(400);
    expect(mock.requests.last('updateLead')?.body).toMatchObject({ first_name: 'ZebulonPatch' });

    await deleteLead(client(), { lead_id: leadId });

    expect(entry()?.body).toMatchObject({ first_name: null, last_name: null, employee_count: null });
    expect(mock.requests.last('updateLead')?.body).toMatchObject({ first_name: null });
    expect(JSON.stringify(mock.requests.all())).not.toContain('Zebulon');
  });

  it('an answer made before an erasure and recorded after it is erased too', async () => {
    const m = markers();
    const created = await createLead(client(), { campaign_id: campaign.id, email: m.email, first_name: m.first_name });
    const leadId = created.lead.id;
    // An override that made its answer (the lead as it was) and gives it only when let go.
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    mock.use(
      mock.http.get('/leads/{lead_id}', async ({ response }) => {
        const answer = response(200).json({ success: true, lead: { ...created.lead } });
        await gate;
        return answer;
      }),
    );
    const read = mock.fetch(
      new Request(`${mock.baseUrl}/leads/${leadId}`, { headers: { Authorization: `Bearer ${mock.apiKey}` } }),
    );
    const unread = mock.fetch(
      new Request(`${mock.baseUrl}/leads/${leadId}?unread=1`, { headers: { Authorization: `Bearer ${mock.apiKey}` } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One entry is read while in flight: the same object is completed later.
    const inFlight = mock.requests.of('getLead')[0];
    expect(inFlight).toMatchObject({ response: null, durationMs: null });

    await deleteLead(client(), { lead_id: leadId });
    letGo();
    expect((await read).status).toBe(200);
    expect((await unread).status).toBe(200);

    const [first, second] = mock.requests.of('getLead');
    expect(first).toBe(inFlight);
    expect(first?.response?.status).toBe(200);
    expect(second?.response?.status).toBe(200);
    const after = JSON.stringify(mock.requests.all());
    for (const value of [m.email, m.first_name]) expect(after, value).not.toContain(value);
  });

  it('an entry read while its request is under way is the one completed, with its answer and duration', async () => {
    mock.scenarios.latency(150, { operations: ['listCampaigns'] });
    const pending = mock.fetch(
      new Request(`${mock.baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${mock.apiKey}` } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entry = mock.requests.last();
    expect(entry).toMatchObject({ operationId: 'listCampaigns', response: null, durationMs: null, fault: null });
    expect((await pending).status).toBe(200);
    expect(mock.requests.last()).toBe(entry);
    expect(entry?.response?.status).toBe(200);
    expect(entry?.durationMs).toBeGreaterThan(0);
  });

  it('removing a lead from one campaign (DELETE with campaign_id) erases nothing', async () => {
    const lead = mock.data.leads.find((l) => l.enrolments[0]?.campaign_id === campaign.id);
    if (!lead?.email) throw new Error('seeded lead missing');
    await getLead(client(), { lead_id: lead.id });
    await deleteLead(client(), { lead_id: lead.id, campaign_id: campaign.id });
    expect(JSON.stringify(mock.requests.all())).toContain(lead.email);
  });
});
