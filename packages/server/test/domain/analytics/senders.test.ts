/** The sender breakdown: each account's sends and replies of the analysis. */
import { describe, expect, it } from 'vitest';
import { senderBreakdown } from '../../../src/domain/analytics/index.ts';
import { at, type DataBuilder, dataBuilder } from '../../support/analytics-data.ts';

const accounts = [
  { id: 'acc_li_1', platform: 'linkedin' as const, label: 'Sam Carter' },
  { id: 'acc_em_1', platform: 'email' as const, label: 'sam@northwind-outreach.com' },
  { id: 'acc_em_2', platform: 'email' as const, label: 'outbound2@northwind-outreach.com' },
];

/** `acc_em_1 email sent 2 r1 p1 50` */
const summary = (rows: ReturnType<typeof senderBreakdown>) =>
  rows.map(
    (r) =>
      `${r.account_id} ${r.platform} ${r.label} sent ${r.sent} r${r.replied_leads} p${r.positive_leads} ${r.reply_rate_pct}`,
  );

describe('senderBreakdown', () => {
  it.each<[string, (b: DataBuilder) => DataBuilder, string | null, string[], string[]]>([
    [
      'assigned accounts in the campaign’s order, with zero counts when they sent nothing',
      (b) => b.lead('e1'),
      null,
      ['acc_em_1', 'acc_li_1'],
      ['acc_em_1 email sam@northwind-outreach.com sent 0 r0 p0 null', 'acc_li_1 linkedin Sam Carter sent 0 r0 p0 null'],
    ],
    [
      'a lead’s first send of each kind counts for its account; its first reply for the account it arrived on',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2), { account_id: 'acc_em_1' })
          .event('e1', 'email_sent', at(3), { account_id: 'acc_em_2' })
          .event('e1', 'connection_requested', at(2), { account_id: 'acc_li_1' })
          .event('e1', 'linkedin_message_sent', at(4), { account_id: 'acc_li_1' })
          .reply('e1', at(5), 'email', { sentiment: 'positive' }, { account_id: 'acc_em_2' })
          .lead('e2')
          .event('e2', 'email_sent', at(2), { account_id: 'acc_em_1' }),
      null,
      ['acc_li_1', 'acc_em_1'],
      [
        'acc_li_1 linkedin Sam Carter sent 2 r0 p0 0',
        'acc_em_1 email sam@northwind-outreach.com sent 2 r0 p0 0',
        'acc_em_2 email outbound2@northwind-outreach.com sent 0 r1 p1 null',
      ],
    ],
    [
      'a reply that does not name its account counts for the last account that wrote on the channel',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2), { account_id: 'acc_em_1' })
          .event('e1', 'email_sent', at(3), { account_id: 'acc_em_2' })
          .reply('e1', at(4), 'email', { sentiment: 'neutral' })
          .event('e1', 'email_sent', at(5), { account_id: 'acc_em_1' }),
      null,
      ['acc_em_1', 'acc_em_2'],
      [
        'acc_em_1 email sam@northwind-outreach.com sent 1 r0 p0 0',
        'acc_em_2 email outbound2@northwind-outreach.com sent 0 r1 p0 null',
      ],
    ],
    [
      'only the window; accounts no longer assigned after the assigned ones, by ID; unknown accounts by their channel',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(1), { account_id: 'acc_em_1' })
          .event('e1', 'email_sent', at(3), { account_id: 'acc_zz_gone' })
          .lead('e2')
          .event('e2', 'connection_requested', at(3), { account_id: 'acc_li_1' })
          .reply('e2', at(4), 'linkedin', { sentiment: 'positive' })
          .lead('e3')
          .event('e3', 'email_sent', at(3)),
      at(2),
      ['acc_em_2'],
      [
        'acc_em_2 email outbound2@northwind-outreach.com sent 0 r0 p0 null',
        'acc_li_1 linkedin Sam Carter sent 1 r1 p1 100',
        'acc_zz_gone email acc_zz_gone sent 1 r0 p0 0',
      ],
    ],
  ])('%s', (_title, build, from, enabled, expected) => {
    expect(summary(senderBreakdown(build(dataBuilder()).data(), from, enabled, accounts))).toEqual(expected);
  });
});
