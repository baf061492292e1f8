/** The preflight rules: every check of the Preflight schema, its issues and the verdict. */
import { describe, expect, it } from 'vitest';
import { evaluatePreflight, type PreflightInput } from '../../src/domain/preflight.ts';
import type { LeadRecord, Sequence, SenderAccountRecord } from '../../src/store/records.ts';
import { q4Sequence } from '../support/campaign-setup.ts';

const checkIds = [
  'sequence',
  'step_content',
  'variables',
  'lead_data_coverage',
  'senders_assigned',
  'senders_connected',
  'email_authentication',
  'account_conflicts',
  'account_limits',
  'enrolled_leads',
  'subscription',
];

function account(overrides: Partial<SenderAccountRecord> & Pick<SenderAccountRecord, 'id' | 'platform'>) {
  const email = overrides.platform === 'email';
  return {
    organization_id: 'org',
    label: email ? 'sam@northwind-outreach.com' : 'Sam Carter',
    status: 'connected',
    email: email ? 'sam@northwind-outreach.com' : null,
    platform_username: 'sam',
    daily_limit: 50,
    email_auth: email ? { spf: true, dkim: true, dmarc: true } : null,
    connected_at: '2026-10-01T00:00:00.000Z',
    created_at: '2026-10-01T00:00:00.000Z',
    ...overrides,
  } satisfies SenderAccountRecord;
}

const linkedin = account({ id: 'acc_li', platform: 'linkedin' });
const email = account({ id: 'acc_em', platform: 'email' });
const lead = (fields: Partial<LeadRecord> = {}): Partial<LeadRecord> => ({
  first_name: 'Maya',
  company: 'Acme Robotics',
  custom_fields: {},
  ...fields,
});

function ready(overrides: Partial<PreflightInput> = {}): PreflightInput {
  return {
    campaign: { id: 'c1', sequence: q4Sequence(), enabled_accounts: ['acc_li', 'acc_em'] },
    aiFields: [{ field_name: 'icebreaker', fallback_value: 'Saw your launch.', is_active: true }],
    accounts: [linkedin, email],
    conflicts: [],
    enrolledLeads: 1,
    leads: [lead()],
    subscriptionActive: true,
    ...overrides,
  };
}

const withSequence = (sequence: Sequence | [], rest: Partial<PreflightInput> = {}) =>
  ready({ campaign: { id: 'c1', sequence, enabled_accounts: ['acc_li', 'acc_em'] }, ...rest });
const statusOf = (input: PreflightInput, id: string) =>
  evaluatePreflight(input).checks.find((c) => c.id === id)?.status;
const codes = (input: PreflightInput) => evaluatePreflight(input).issues.map((i) => `${i.severity}:${i.code}`);

describe('evaluatePreflight', () => {
  it('passes a ready campaign: eleven checks in order, no issue', () => {
    const verdict = evaluatePreflight(ready());
    expect(verdict).toMatchObject({ success: true, campaign_id: 'c1', ok: true, blocking_count: 0, warning_count: 0 });
    expect(verdict.checks.map((c) => c.id)).toEqual(checkIds);
    expect(verdict.checks.every((c) => c.status === 'pass')).toBe(true);
    expect(verdict.issues).toEqual([]);
    const detail = (id: string) => verdict.checks.find((c) => c.id === id)?.detail;
    expect(detail('variables')).toBe('{first_name} and {company} are lead fields; {icebreaker} is an active AI field.');
    expect(detail('lead_data_coverage')).toBe(
      'Every enrolled lead has a first_name and a company; {icebreaker} has a fallback value.',
    );
    expect(detail('sequence')).toBe(
      'variation_a has 6 steps and variation_b 6 steps (12 in all) and they pass the structural rules.',
    );
  });

  it('blocks a bare draft: no sequence, no sender, no lead, inactive subscription', () => {
    const verdict = evaluatePreflight(
      ready({
        campaign: { id: 'c1', sequence: [], enabled_accounts: [] },
        aiFields: [],
        accounts: [],
        enrolledLeads: 0,
        leads: [],
        subscriptionActive: false,
      }),
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.issues.map((i) => i.code)).toEqual([
      'NO_SEQUENCE',
      'NO_SENDERS',
      'NO_LEADS',
      'SUBSCRIPTION_INACTIVE',
    ]);
    expect(verdict.blocking_count).toBe(4);
    expect(Object.fromEntries(verdict.checks.map((c) => [c.id, c.status]))).toEqual({
      sequence: 'fail',
      step_content: 'pass',
      variables: 'pass',
      lead_data_coverage: 'pass',
      senders_assigned: 'fail',
      senders_connected: 'pass',
      email_authentication: 'pass',
      account_conflicts: 'pass',
      account_limits: 'pass',
      enrolled_leads: 'fail',
      subscription: 'fail',
    });
    for (const issue of verdict.issues) expect(issue.fix).not.toBe('');
  });

  it('fails the sequence check for an empty variation_a and for broken structural rules', () => {
    expect(codes(withSequence({ variation_a: [] }))).toContain('blocking:NO_SEQUENCE');
    const broken = withSequence({
      variation_a: [
        { id: 1, type: 'email', subject: 'Hi {first_name}', content: 'x', delay: 120 },
        { id: 2, type: 'linkedin_connection', message: 'hi' },
      ],
    });
    const verdict = evaluatePreflight(broken);
    expect(verdict.issues[0]).toMatchObject({ code: 'SEQUENCE_INVALID', severity: 'blocking' });
    expect(verdict.issues[0]?.message).toContain('2 structural rules');
  });

  it('checks step content: email subject and content, message text, connection note length', () => {
    const input = withSequence({
      variation_a: [
        { id: 1, type: 'email', subject: '', content: 'Body', delay: 0 },
        { id: 2, type: 'linkedin_connection', message: 'x'.repeat(301) },
        {
          id: 3,
          type: 'conditional',
          branches: { yes: [{ id: 4, type: 'linkedin_message', message: '  ' }], no: [] },
        },
      ],
    });
    const verdict = evaluatePreflight(input);
    const content = verdict.issues.filter((i) => ['STEP_CONTENT_MISSING', 'CONNECTION_NOTE_TOO_LONG'].includes(i.code));
    expect(content.map((i) => [i.code, i.severity, i.message])).toEqual([
      ['STEP_CONTENT_MISSING', 'blocking', 'Email step 1 has no subject.'],
      ['STEP_CONTENT_MISSING', 'blocking', 'LinkedIn message step 4 has no message.'],
      [
        'CONNECTION_NOTE_TOO_LONG',
        'warning',
        'The connection note of step 2 has 301 characters; LinkedIn cuts notes after 300.',
      ],
    ]);
    expect(statusOf(input, 'step_content')).toBe('fail');
    const onlyLong = withSequence({
      variation_a: [
        { id: 1, type: 'linkedin_connection', message: 'x'.repeat(301) },
        { id: 2, type: 'conditional', branches: { yes: [], no: [] } },
      ],
    });
    expect(statusOf(onlyLong, 'step_content')).toBe('warn');
    expect(evaluatePreflight(onlyLong).ok).toBe(true);
  });

  it('fails unknown placeholders and inactive AI fields; custom fields of enrolled leads are known', () => {
    const sequence: Sequence = {
      variation_a: [
        { id: 1, type: 'email', subject: '{first_name} {pain_point}', content: '{mystery} {old_line} {mystery}' },
      ],
    };
    const input = withSequence(sequence, {
      aiFields: [{ field_name: 'old_line', fallback_value: 'x', is_active: false }],
      leads: [lead({ custom_fields: { pain_point: 'slow outbound' } })],
    });
    const verdict = evaluatePreflight(input);
    const variables = verdict.issues.filter((i) => i.code === 'UNKNOWN_VARIABLE');
    expect(variables.map((i) => i.message)).toEqual([
      '{mystery} in step 1 is not a lead field, a custom field of an enrolled lead or an active AI field.',
      '{old_line} in step 1 names an inactive AI field, which is neither written nor filled.',
    ]);
    expect(variables.every((i) => i.severity === 'blocking')).toBe(true);
    expect(statusOf(input, 'variables')).toBe('fail');
    // Without the lead that has it, the custom field is unknown too.
    expect(
      codes(withSequence(sequence, { leads: [lead()], aiFields: [] })).filter((c) => c === 'blocking:UNKNOWN_VARIABLE'),
    ).toHaveLength(3);
  });

  it('warns about lead data coverage below 100% and AI fields without a fallback', () => {
    const input = ready({
      aiFields: [{ field_name: 'icebreaker', fallback_value: null, is_active: true }],
      enrolledLeads: 4,
      leads: [lead(), lead({ company: null }), lead({ company: '' }), lead()],
    });
    const verdict = evaluatePreflight(input);
    expect(verdict.ok).toBe(true);
    expect(verdict.issues.map((i) => [i.code, i.severity])).toEqual([
      ['LOW_LEAD_DATA_COVERAGE', 'warning'],
      ['AI_FIELD_WITHOUT_FALLBACK', 'warning'],
    ]);
    expect(verdict.issues[0]?.message).toBe(
      '{company} has no value for 2 of 4 enrolled leads (50% coverage); it renders empty for them.',
    );
    expect(verdict.warning_count).toBe(2);
    expect(statusOf(input, 'lead_data_coverage')).toBe('warn');
  });

  it('counts a gap an active AI field of the same name fills as covered, as the preview renders it', () => {
    const input = ready({
      aiFields: [
        { field_name: 'icebreaker', fallback_value: 'Saw your launch.', is_active: true },
        { field_name: 'company', fallback_value: 'your team', is_active: true },
      ],
      enrolledLeads: 2,
      leads: [lead(), lead({ company: null })],
    });
    expect(evaluatePreflight(input).issues).toEqual([]);
  });

  it('measures coverage only once leads are enrolled', () => {
    const input = ready({ enrolledLeads: 0, leads: [] });
    const check = evaluatePreflight(input).checks.find((c) => c.id === 'lead_data_coverage');
    expect(check?.status).toBe('pass');
    expect(check?.detail).toContain('No lead is enrolled yet');
  });

  it('needs a sender for every channel the sequence uses, each connected', () => {
    const emailOnly = ready({ campaign: { id: 'c1', sequence: q4Sequence(), enabled_accounts: ['acc_em'] } });
    expect(codes({ ...emailOnly, accounts: [email] })).toEqual(['blocking:MISSING_CHANNEL_SENDER']);
    const down = account({ id: 'acc_down', platform: 'email', status: 'disconnected', label: 'outbound2@x.com' });
    const input = ready({
      campaign: { id: 'c1', sequence: q4Sequence(), enabled_accounts: ['acc_li', 'acc_down', 'acc_gone'] },
      accounts: [linkedin, down],
    });
    const verdict = evaluatePreflight(input);
    expect(verdict.issues.filter((i) => i.code === 'SENDER_DISCONNECTED').map((i) => i.message)).toEqual([
      'Account acc_gone is not an account of the organization any more.',
      'Email account outbound2@x.com (acc_down) is disconnected.',
    ]);
    expect(statusOf(input, 'senders_connected')).toBe('fail');
  });

  it('warns about failing email authentication, naming the domain', () => {
    const weak = account({
      id: 'acc_em',
      platform: 'email',
      email: 'sam@northwind-outreach.com',
      email_auth: { spf: true, dkim: true, dmarc: false },
    });
    const input = ready({ accounts: [linkedin, weak] });
    const verdict = evaluatePreflight(input);
    expect(verdict.ok).toBe(true);
    expect(verdict.issues).toEqual([
      {
        code: 'EMAIL_AUTH_FAILING',
        severity: 'warning',
        message:
          'northwind-outreach.com fails DMARC; mail from sam@northwind-outreach.com is more likely to land in spam.',
        fix: 'Publish a DMARC record (for example v=DMARC1; p=none) for northwind-outreach.com.',
      },
    ]);
    expect(statusOf(input, 'email_authentication')).toBe('warn');
  });

  it('blocks accounts that send for another active campaign', () => {
    const input = ready({
      conflicts: [{ account_id: 'acc_li', campaign_id: 'c2', campaign_name: 'EMEA Expansion' }],
    });
    const verdict = evaluatePreflight(input);
    expect(verdict.issues).toEqual([
      {
        code: 'ACCOUNT_IN_USE',
        severity: 'blocking',
        message: 'LinkedIn account Sam Carter (acc_li) already sends for the active campaign EMEA Expansion (c2).',
        fix: 'Assign another LinkedIn account with PUT /v1/campaigns/{campaign_id}/senders, or deactivate EMEA Expansion first.',
      },
    ]);
  });

  it('blocks a zero daily limit and warns when the limits cannot reach every lead within a week', () => {
    const zero = ready({ accounts: [linkedin, { ...email, daily_limit: 0 }] });
    expect(codes(zero)).toEqual(['blocking:ACCOUNT_LIMIT_ZERO']);
    // 50 emails a day reach 350 leads in a week; 351 need more than a week (LinkedIn has room).
    const leads = Array.from({ length: 351 }, () => lead());
    const accounts = [{ ...linkedin, daily_limit: 100 }, email];
    expect(codes(ready({ accounts, enrolledLeads: 350, leads: leads.slice(0, 350) }))).toEqual([]);
    const crowded = ready({ accounts, enrolledLeads: 351, leads });
    expect(codes(crowded)).toEqual(['warning:LOW_SENDING_CAPACITY']);
    expect(evaluatePreflight(crowded).issues[0]?.message).toBe(
      'The email accounts send 50 a day: reaching all 351 enrolled leads takes 8 days, more than a week.',
    );
  });

  it('lists blocking issues before warnings and counts both', () => {
    const input = ready({
      accounts: [linkedin, { ...email, email_auth: { spf: false, dkim: true, dmarc: true } }],
      enrolledLeads: 0,
      leads: [],
    });
    const verdict = evaluatePreflight(input);
    expect(codes(input)).toEqual(['blocking:NO_LEADS', 'warning:EMAIL_AUTH_FAILING']);
    expect(verdict).toMatchObject({ ok: false, blocking_count: 1, warning_count: 1 });
  });
});
