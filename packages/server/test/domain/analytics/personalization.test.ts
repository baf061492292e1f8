/** Personalization quality, and the placeholder record the engine writes with each message. */
import { describe, expect, it } from 'vitest';
import { personalizationQuality, placeholderFills } from '../../../src/domain/analytics/index.ts';
import type { PlaceholderFill, SequenceStep } from '../../../src/store/records.ts';
import { at, type DataBuilder, dataBuilder } from '../../support/analytics-data.ts';

const fills = (...entries: Array<[string, PlaceholderFill['source'], PlaceholderFill['fill']]>) => ({
  data: { placeholders: entries.map(([name, source, fill]) => ({ name, source, fill })) },
});

describe('personalizationQuality', () => {
  it.each<[string, (b: DataBuilder) => DataBuilder, string | null, ReturnType<typeof personalizationQuality>]>([
    ['no messages', (b) => b.lead('e1'), null, { messages_sent: 0, fields: [] }],
    [
      'each lead’s first message of each kind, most used placeholder first, then by name',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2), fills(['first_name', 'lead', 'filled'], ['icebreaker', 'ai', 'fallback']))
          .event('e1', 'email_sent', at(3), fills(['first_name', 'lead', 'empty']))
          .event('e1', 'profile_viewed', at(3))
          .event(
            'e1',
            'connection_requested',
            at(4),
            fills(['first_name', 'lead', 'filled'], ['company', 'lead', 'empty']),
          )
          .lead('e2')
          .event(
            'e2',
            'linkedin_message_sent',
            at(2),
            fills(['icebreaker', 'ai', 'filled'], ['icebreaker', 'ai', 'filled']),
          )
          .event('e2', 'email_sent', at(2)),
      null,
      {
        messages_sent: 4,
        fields: [
          { name: 'first_name', source: 'lead', uses: 2, filled: 2, fallback: 0, empty: 0, filled_rate_pct: 100 },
          { name: 'icebreaker', source: 'ai', uses: 2, filled: 1, fallback: 1, empty: 0, filled_rate_pct: 50 },
          { name: 'company', source: 'lead', uses: 1, filled: 0, fallback: 0, empty: 1, filled_rate_pct: 0 },
        ],
      },
    ],
    [
      'only the window',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(1), fills(['first_name', 'lead', 'filled']))
          .event('e1', 'email_sent', at(3), fills(['first_name', 'lead', 'empty'])),
      at(2),
      {
        messages_sent: 1,
        fields: [{ name: 'first_name', source: 'lead', uses: 1, filled: 0, fallback: 0, empty: 1, filled_rate_pct: 0 }],
      },
    ],
  ])('%s', (_title, build, from, expected) => {
    expect(personalizationQuality(build(dataBuilder()).data(), from)).toEqual(expected);
  });
});

describe('placeholderFills', () => {
  const step: SequenceStep = {
    id: 1,
    type: 'email',
    subject: '{first_name}, about {company}',
    content: '{icebreaker} {first_name} {funding_stage} {title} {unknown} {tagline} {off}',
  };
  const lead = { first_name: 'Maya', company: '', title: null, custom_fields: { funding_stage: 'Series B' } };
  const aiFields = [
    { field_name: 'icebreaker', fallback_value: 'Saw your news', is_active: true },
    { field_name: 'tagline', fallback_value: null, is_active: true },
    { field_name: 'off', fallback_value: 'x', is_active: false },
  ];

  it('says how each placeholder is filled, each once, in order of first use', () => {
    expect(placeholderFills(step, lead, aiFields)).toEqual([
      { name: 'first_name', source: 'lead', fill: 'filled' },
      { name: 'company', source: 'lead', fill: 'empty' },
      { name: 'icebreaker', source: 'ai', fill: 'fallback' },
      { name: 'funding_stage', source: 'lead', fill: 'filled' },
      { name: 'title', source: 'lead', fill: 'empty' },
      { name: 'unknown', source: 'lead', fill: 'empty' },
      { name: 'tagline', source: 'ai', fill: 'empty' },
      { name: 'off', source: 'lead', fill: 'empty' },
    ]);
  });

  it('finds no fill in what custom fields and generated values inherit from Object.prototype', () => {
    const inherited: SequenceStep = {
      id: 2,
      type: 'email',
      subject: '{constructor}',
      content: '{__proto__} {toString}',
    };
    const active = [{ field_name: 'toString', fallback_value: null, is_active: true }];
    expect(placeholderFills(inherited, lead, active, {})).toEqual([
      { name: 'constructor', source: 'lead', fill: 'empty' },
      { name: '__proto__', source: 'lead', fill: 'empty' },
      { name: 'toString', source: 'ai', fill: 'empty' },
    ]);
  });

  it('counts a generated AI value as filled', () => {
    const result = placeholderFills(step, lead, aiFields, { icebreaker: 'Congrats on the round', tagline: '' });
    expect(result.filter((f) => f.source === 'ai')).toEqual([
      { name: 'icebreaker', source: 'ai', fill: 'filled' },
      { name: 'tagline', source: 'ai', fill: 'empty' },
    ]);
  });
});
