/** Which form of a body with several forms a request meant (decision 0012). */
import { describe, expect, it } from 'vitest';
import { meantForm } from '../../src/http/body-forms.ts';
import { operationsById } from '../../src/openapi/document.ts';

const forms = operationsById.get('createLead')?.bodyForms ?? [];
const meant = (body: unknown) => meantForm(forms, body)?.pointer;

describe('meantForm', () => {
  it('finds the two forms of POST /leads in the document', () => {
    expect(forms.map((form) => form.pointer)).toEqual([
      '#/components/schemas/LeadInput',
      '#/components/schemas/LeadBatchInput',
    ]);
  });

  it('takes a body with leads for the batch, any other object for one lead', () => {
    expect(meant({ leads: [] })).toBe('#/components/schemas/LeadBatchInput');
    expect(meant({ leads: 'not a list' })).toBe('#/components/schemas/LeadBatchInput');
    expect(meant({})).toBe('#/components/schemas/LeadInput');
    expect(meant({ email: 'bad', colour: 'red' })).toBe('#/components/schemas/LeadInput');
  });

  it('takes a body with leads and fields of neither form for the batch, which names the unknown field', () => {
    expect(meant({ leads: [], email: 'a@b.co' })).toBe('#/components/schemas/LeadBatchInput');
    expect(meant({ leads: [], campaign_id: 'c' })).toBe('#/components/schemas/LeadBatchInput');
  });

  it('names none when the body fits neither or is not an object', () => {
    expect(meant([])).toBeUndefined();
    expect(meant(null)).toBeUndefined();
    expect(meant('text')).toBeUndefined();
    expect(meantForm([], {})).toBeUndefined();
  });
});
