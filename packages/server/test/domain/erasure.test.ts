/** The pure parts of erasure (domain/erasure.ts): which values are the lead's, and how they are taken out. */
import { expect, it } from 'vitest';
import { erasedAnswer, erasedDealSummary, personalValues, scrubText } from '../../src/domain/erasure.ts';
import type { DealRecord, LeadRecord } from '../../src/store/records.ts';

const lead: LeadRecord = {
  id: '11111111-1111-4111-8111-111111111111',
  organization_id: '22222222-2222-4222-8222-222222222222',
  email: 'al.ng@acme.example',
  first_name: 'Al',
  last_name: 'Ng',
  company: 'Acme',
  title: null,
  industry: '',
  website: 'https://acme.example',
  linkedin_profile: null,
  annual_revenue: 1_000_000,
  employee_count: 12,
  custom_fields: { city: 'Lyon', tags: ['vip', { nested: 'Blue Fox' }], seats: 5 },
  deleted_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

it('takes every text value of the lead and its custom fields, longest first, blanks left out', () => {
  const values = personalValues(lead);
  expect(new Set(values)).toEqual(
    new Set(['al.ng@acme.example', 'Al', 'Ng', 'Acme', 'https://acme.example', 'Lyon', 'vip', 'Blue Fox']),
  );
  expect(values.map((v) => v.length)).toEqual(values.map((v) => v.length).sort((a, b) => b - a));
});

it('replaces whole occurrences, case-insensitively, and leaves words that merely contain a value', () => {
  const values = personalValues(lead);
  expect(scrubText('Call AL NG of acme (al.ng@acme.example); Also see https://acme.example/pricing', values)).toBe(
    'Call [erased] [erased] of [erased] ([erased]); Also see [erased]/pricing',
  );
});

it("erases a deal's summary and a stored answer naming the lead", () => {
  const values = personalValues(lead);
  const deal = {
    name: 'Acme expansion',
    notes: 'Met Al in Lyon',
    custom_fields: { contact: 'al.ng@acme.example', Lyon: 1 },
    metadata: null,
  } as unknown as DealRecord;
  expect(erasedDealSummary(deal, values)).toEqual({
    name: '[erased] expansion',
    notes: 'Met [erased] in [erased]',
    custom_fields: { contact: '[erased]', '[erased]': 1 },
    metadata: null,
  });
  const answer = JSON.stringify({ success: true, lead: { ...lead }, campaign: { name: 'Acme Q4' } });
  const erased = JSON.parse(erasedAnswer(answer, lead.id, values));
  expect(erased.lead).toMatchObject({ id: lead.id, email: null, annual_revenue: null, custom_fields: {} });
  expect(erased.campaign.name).toBe('[erased] Q4');
  expect(erasedAnswer('not json: Al', lead.id, values)).toBe('not json: [erased]');
});

it('leaves a stored answer that holds only the lead’s ID as it is, and still finds the lead’s values in any other', () => {
  const values = personalValues(lead);
  // An import's answer: the lead named by ID, nothing of its data.
  const imported = JSON.stringify({
    success: true,
    results: [{ index: 0, status: 201, success: true, message: 'Lead created.', created: true, lead_id: lead.id }],
  });
  expect(erasedAnswer(imported, lead.id, values)).toBe(imported);
  // A value as JSON writes it inside a string, in another case; and a value standing alone.
  const quoted = { ...lead, last_name: 'O"Brien' };
  const quotedValues = personalValues(quoted);
  const note = JSON.stringify({ lead_id: lead.id, note: 'Call o"brien today' });
  expect(JSON.parse(erasedAnswer(note, lead.id, quotedValues)).note).toBe('Call [erased] today');
  const city = JSON.stringify({ lead_id: lead.id, note: 'Meet in LYON' });
  expect(JSON.parse(erasedAnswer(city, lead.id, values)).note).toBe('Meet in [erased]');
  // An object naming the lead with a personal field whose value is no longer the lead's (an
  // older email) is erased through the field.
  const older = JSON.stringify({ lead: { id: lead.id, email: 'old@elsewhere.example' } });
  expect(JSON.parse(erasedAnswer(older, lead.id, values)).lead.email).toBeNull();
  // A Greek name in an answer with an ß, and after an escape (found by a review against the
  // walk without this check, with fast-check).
  const greek = personalValues({ ...lead, last_name: 'Παπαδόπουλος', custom_fields: { code: 'Σ-Α' } });
  const german = JSON.stringify({ lead_id: lead.id, note: 'Grüße aus Athen: call Νίκος Παπαδόπουλος' });
  expect(JSON.parse(erasedAnswer(german, lead.id, greek)).note).toBe('Grüße aus Athen: call Νίκος [erased]');
  const escaped = JSON.stringify({ lead_id: lead.id, note: 'line\nΣ-Α' });
  expect(JSON.parse(erasedAnswer(escaped, lead.id, greek)).note).toBe('line\n[erased]');
  // Half a surrogate pair: JSON escapes it alone, not inside the pair it matches.
  const half = personalValues({ ...lead, custom_fields: { mark: '\u0001\ud83d' } });
  const pair = JSON.stringify({ lead_id: lead.id, note: 'x\u0001😀 y' });
  expect(erasedAnswer(pair, lead.id, half)).not.toBe(pair);
});
