/** `POST /campaigns/{campaign_id}/preview`: placeholders from the lead, AI fields from their fallback. */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence, insertLead, q4Sequence } from '../support/campaign-setup.ts';

interface Message {
  step_id: number;
  type: string;
  channel: string;
  branch: string | null;
  subject: string | null;
  content: string | null;
  message: string | null;
  missing_variables: string[];
}
interface Failure {
  error: string;
  message: string;
  details?: { errors: Array<{ field: string; message: string; type: string }> };
}
interface Preview {
  campaign_id: string;
  lead_id: string | null;
  variation: string;
  messages: Message[];
  error?: string;
  message?: string;
  details?: { step_id?: number };
}

describeBackends('campaign preview', (store) => {
  let api: TestApi;
  let campaignId: string;
  const setup = async () => {
    api = await createTestApi(store());
    campaignId = await createCampaign(api, { sequence: q4Sequence() });
    await api.call('POST', `/v1/campaigns/${campaignId}/ai-fields`, {
      body: { field_name: 'icebreaker', ai_instructions: 'One line.', fallback_value: 'I saw your launch.' },
    });
  };
  const preview = (body: unknown, id = campaignId) =>
    api.call<Preview>('POST', `/v1/campaigns/${id}/preview`, { body });

  it('renders every step of variation a for a stored lead, branches in order', async () => {
    await setup();
    const { lead } = await insertLead(api, { first_name: 'Maya', company: 'Acme Robotics' });
    const answer = await preview({ lead_id: lead.id });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, campaign_id: campaignId, lead_id: lead.id, variation: 'a' });
    expect(answer.body.messages.map((m) => [m.step_id, m.type, m.channel, m.branch])).toEqual([
      [1, 'email', 'email', null],
      [2, 'view_profile', 'linkedin', null],
      [3, 'linkedin_connection', 'linkedin', null],
      [4, 'conditional', 'linkedin', null],
      [5, 'linkedin_message', 'linkedin', '4.yes'],
      [6, 'email', 'email', '4.no'],
    ]);
    expect(answer.body.messages[0]).toMatchObject({
      subject: 'Maya, quick question about Acme Robotics',
      content: 'Hi Maya,\n\nI saw your launch.\n\nWorth a call about Acme Robotics?',
      message: null,
      missing_variables: [],
    });
    expect(answer.body.messages[1]).toMatchObject({ subject: null, content: null, message: null });
    expect(answer.body.messages[4]?.message).toBe('Thanks for connecting, Maya.');
  });

  it('renders one step of variation b for inline sample data, listing missing variables', async () => {
    await setup();
    const answer = await preview({ lead: { first_name: 'Priya', title: 'VP Finance' }, variation: 'b', step_id: 7 });
    expect(answer.body).toMatchObject({ lead_id: null, variation: 'b' });
    expect(answer.body.messages).toEqual([
      {
        step_id: 7,
        type: 'email',
        channel: 'email',
        branch: null,
        subject: 'Idea for  pipeline',
        content: 'Hi Priya,\n\nI saw your launch.\n\nWorth a call about ?',
        message: null,
        missing_variables: ['company'],
      },
    ]);
  });

  it('lets inline fields override a stored lead, merging custom fields', async () => {
    await setup();
    await api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/5`, {
      body: { updates: { message: '{first_name}: {pain_point} / {segment}' } },
    });
    const { lead } = await insertLead(api, {
      first_name: 'Maya',
      custom_fields: { pain_point: 'slow outbound', segment: 'A' },
    });
    const answer = await preview({
      lead_id: lead.id,
      lead: { first_name: 'M.', custom_fields: { segment: 'B' } },
      step_id: 5,
    });
    expect(answer.body.lead_id).toBe(lead.id);
    expect(answer.body.messages[0]?.message).toBe('M.: slow outbound / B');
  });

  it('renders from an empty lead when none is given; inactive AI fields and fields without a fallback stay empty', async () => {
    await setup();
    const fields = await api.call<{ ai_fields: Array<{ id: string }> }>('GET', `/v1/campaigns/${campaignId}/ai-fields`);
    await api.call('PATCH', `/v1/campaigns/${campaignId}/ai-fields/${fields.body.ai_fields[0]?.id}`, {
      body: { is_active: false },
    });
    const answer = await preview({ step_id: 1 });
    expect(answer.body.messages[0]).toMatchObject({
      subject: ', quick question about ',
      missing_variables: ['first_name', 'company', 'icebreaker'],
    });
    await api.call('POST', `/v1/campaigns/${campaignId}/ai-fields`, {
      body: { field_name: 'closing', ai_instructions: 'x' },
    });
    await api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/3`, {
      body: { updates: { message: '{closing}' } },
    });
    expect((await preview({ step_id: 3 })).body.messages[0]?.missing_variables).toEqual(['closing']);
  });

  it('answers NO_SEQUENCE, VARIATION_B_MISSING and VALIDATION_ERROR', async () => {
    await setup();
    const empty = await createCampaign(api);
    const noSequence = await preview({}, empty);
    expect(noSequence.status).toBe(400);
    expect(noSequence.body.error).toBe('NO_SEQUENCE');
    const single = await createCampaign(api, { sequence: emailSequence() });
    const noB = await preview({ variation: 'b' }, single);
    expect(noB.status).toBe(409);
    expect(noB.body.error).toBe('VARIATION_B_MISSING');
    for (const body of [{ variation: 'c' }, { lead_id: 'not-a-uuid' }, { colour: 'red' }]) {
      const invalid = await preview(body);
      expect(invalid.status, JSON.stringify(body)).toBe(400);
      expect(invalid.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('answers STEP_NOT_FOUND for a step outside the chosen arm', async () => {
    await setup();
    const answer = await preview({ step_id: 9 });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'STEP_NOT_FOUND', details: { step_id: 9 } });
    expect((await preview({ step_id: 9, variation: 'b' })).status).toBe(200);
  });

  it('answers LEAD_NOT_FOUND for unknown, deleted and other organizations’ leads, as GET /v1/leads/{id} does', async () => {
    await setup();
    const deleted = await insertLead(api);
    await store().leads.erase(api.organizationId, deleted.lead.id, new Date().toISOString());
    const other = await createTestApi(store());
    const foreign = await insertLead(other);
    for (const leadId of [crypto.randomUUID(), deleted.lead.id, foreign.lead.id]) {
      const answer = await preview({ lead_id: leadId });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('LEAD_NOT_FOUND');
      // The shared lookup's answer, hint included, not a text of the preview's own.
      const lookup = await api.call<Failure>('GET', `/v1/leads/${leadId}`);
      expect([lookup.status, lookup.body.error]).toEqual([404, 'LEAD_NOT_FOUND']);
      expect(answer.body.message).toBe(lookup.body.message);
    }
    const hidden = await other.call<Preview>('POST', `/v1/campaigns/${campaignId}/preview`, { body: {} });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('CAMPAIGN_NOT_FOUND');
  });
});

// Rendering is the same on every store: once, on memory.
describe('a preview that renders past 100,000 characters (decision 0005)', () => {
  /** A campaign whose emails' content is `{notes}` 10,000 times (70 KB of text). */
  const manyPlaceholders = async (api: TestApi, steps: number) =>
    createCampaign(api, {
      sequence: {
        variation_a: Array.from({ length: steps }, (_, i) => ({
          id: i + 1,
          type: 'email',
          subject: 'Notes',
          content: '{notes}'.repeat(Math.floor(10_000 / steps)),
          delay: 0,
        })),
      },
    });
  const notes = (length: number) => ({ lead: { email: 'p@x.example', custom_fields: { notes: 'n'.repeat(length) } } });

  it('answers 400 with what to do, rendering nothing (it was 100 MB from 1 KB, then a 500)', async () => {
    const api = await createTestApi(createMemoryStore());
    const id = await manyPlaceholders(api, 1);
    const fits = await api.call<Preview>('POST', `/v1/campaigns/${id}/preview`, { body: notes(9) });
    expect(fits.status).toBe(200);
    expect(fits.body.messages[0]?.content).toHaveLength(90_000);
    // 10 characters: the content alone is 100,000, and the subject comes on top.
    for (const length of [10, 1000, 300_000]) {
      const answer = await api.call<Failure>('POST', `/v1/campaigns/${id}/preview`, { body: notes(length) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details?.errors).toEqual([
        { field: 'body', message: 'renders to more than 100,000 characters', type: 'max_length' },
      ]);
      expect(answer.body.message).toMatch(/Preview one step \(step_id\)/);
    }
  });

  it('counts every message of the answer together: many steps cannot each take the budget', async () => {
    const api = await createTestApi(createMemoryStore());
    const id = await manyPlaceholders(api, 4);
    // Each step renders 2,500 × 20 = 50,000 characters: one fits, four do not.
    const one = await api.call<Preview>('POST', `/v1/campaigns/${id}/preview`, { body: { ...notes(20), step_id: 3 } });
    expect(one.status).toBe(200);
    expect(one.body.messages[0]?.content).toHaveLength(50_000);
    const all = await api.call<Failure>('POST', `/v1/campaigns/${id}/preview`, { body: notes(20) });
    expect(all.status).toBe(400);
  });

  it('answers less JSON than a request may send, whatever the characters (a 95-byte request answered 6 MB)', async () => {
    const api = await createTestApi(createMemoryStore());
    const preview = async (placeholders: number) => {
      const id = await createCampaign(api, {
        sequence: {
          variation_a: [{ id: 1, type: 'email', subject: 'S', content: '{a}'.repeat(placeholders), delay: 0 }],
        },
      });
      // U+0001 is written `\u0001` in JSON: 6 bytes a character.
      const body = JSON.stringify({ lead: { custom_fields: { a: '\u0001'.repeat(10) } } });
      const response = await api.app.fetch(
        new Request(`http://localhost/v1/campaigns/${id}/preview`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${api.key}`, 'Content-Type': 'application/json' },
          body,
        }),
      );
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    };
    // At the budget (99,991 characters): 600 KB of JSON, under the 1 MB a request may be.
    const atTheBudget = await preview(9_999);
    expect(atTheBudget.status).toBe(200);
    expect(atTheBudget.bytes).toBeGreaterThan(6 * 99_990);
    expect(atTheBudget.bytes).toBeLessThan(1_048_576);
    // The attack's campaign rendered 500,000 characters a text: 400 now, 6 MB before.
    const attack = await preview(50_000);
    expect(attack.status).toBe(400);
    expect(attack.bytes).toBeLessThan(2_000);
  });
});
