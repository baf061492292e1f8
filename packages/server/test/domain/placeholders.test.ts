/** Parsing and rendering placeholders, and where a lead's placeholder values come from. */
import { describe, expect, it } from 'vitest';
import {
  leadPlaceholderValues,
  maxRenderedLength,
  parsePlaceholders,
  RenderedTooLong,
  renderPlaceholders,
  renderStepTexts,
  sentTextFields,
  stepPlaceholders,
} from '../../src/domain/placeholders.ts';

describe('parsePlaceholders', () => {
  it('finds each name once, in order of first appearance', () => {
    expect(parsePlaceholders('{first_name}, about {company}: {first_name} {icebreaker}')).toEqual([
      'first_name',
      'company',
      'icebreaker',
    ]);
  });

  it('ignores braces that do not hold a placeholder name, and bracketed hints', () => {
    expect(parsePlaceholders('{} { first_name } {9lives} [Your name] {a-b} {ok_1}')).toEqual(['ok_1']);
  });
});

describe('stepPlaceholders', () => {
  it('reads only the text the step type sends', () => {
    expect(
      stepPlaceholders({ id: 1, type: 'email', subject: '{a}', content: '{b} {a}', message: '{ignored}' }),
    ).toEqual(['a', 'b']);
    expect(stepPlaceholders({ id: 2, type: 'linkedin_connection', message: '{c}', subject: '{ignored}' })).toEqual([
      'c',
    ]);
    expect(stepPlaceholders({ id: 3, type: 'view_profile', message: '{ignored}' })).toEqual([]);
    expect(sentTextFields('conditional')).toEqual([]);
  });
});

describe('renderPlaceholders', () => {
  const values = (map: Record<string, unknown>) => (name: string) => map[name];

  it('fills values and leaves missing or empty ones empty, listing them once', () => {
    const result = renderPlaceholders(
      'Hi {first_name}, about {company} and {company}; {title}',
      values({ first_name: 'Maya', title: '' }),
    );
    expect(result).toEqual({ text: 'Hi Maya, about  and ; ', missing: ['company', 'title'] });
  });

  it('renders numbers and booleans as text and objects as JSON', () => {
    const result = renderPlaceholders('{n} {b} {o}', values({ n: 250, b: false, o: { tier: 1 } }));
    expect(result).toEqual({ text: '250 false {"tier":1}', missing: [] });
  });
});

describe('leadPlaceholderValues', () => {
  const ai = [
    { field_name: 'icebreaker', fallback_value: 'Saw your launch.', is_active: true },
    { field_name: 'old_line', fallback_value: 'Old.', is_active: false },
    { field_name: 'company', fallback_value: 'AI company', is_active: true },
    { field_name: 'no_fallback', fallback_value: null, is_active: true },
  ];
  const lead = {
    id: 'lead-id',
    first_name: 'Maya',
    company: null,
    custom_fields: { pain_point: 'slow outbound', first_name: 'shadowed' },
  };
  const value = leadPlaceholderValues(lead, ai);

  it('takes lead fields first, then custom fields, then active AI fields’ fallbacks', () => {
    expect(value('first_name')).toBe('Maya');
    expect(value('pain_point')).toBe('slow outbound');
    expect(value('icebreaker')).toBe('Saw your launch.');
    // A lead field without a value falls through to the AI field of the same name.
    expect(value('company')).toBe('AI company');
  });

  it('has no value for inactive AI fields, AI fields without a fallback, unknown names or record internals', () => {
    expect(value('old_line')).toBeNull();
    expect(value('no_fallback')).toBeNull();
    expect(value('nothing')).toBeNull();
    expect(value('id')).toBeNull();
    expect(value('custom_fields')).toBeNull();
  });

  it('finds only the custom fields the lead has, none of Object.prototype’s members', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(value(name)).toBeNull();
      expect(renderPlaceholders(`Hello {${name}}.`, value)).toEqual({ text: 'Hello .', missing: [name] });
    }
    // Stored custom fields come back from JSON, where `__proto__` is a field like any other.
    const own = leadPlaceholderValues({ custom_fields: JSON.parse('{"__proto__": "VAL", "constructor": "C"}') }, []);
    expect(renderPlaceholders('{__proto__} {constructor}', own)).toEqual({ text: 'VAL C', missing: [] });
  });
});

describe('renderPlaceholders within a budget (decision 0005)', () => {
  it('renders up to the budget, takes what it rendered from it, and throws past it having built nothing', () => {
    const budget = { remaining: 25 };
    expect(renderPlaceholders('Hi {a}!', () => 'Ada', budget).text).toBe('Hi Ada!');
    expect(budget.remaining).toBe(18);
    expect(() => renderPlaceholders('{a}{a}{a}{a}{a}{a}{a}', () => 'Ada', budget)).toThrow(RenderedTooLong);
    expect(budget.remaining).toBe(18);
  });

  it('stops at 100,000 characters by default, however few the placeholders', () => {
    expect(maxRenderedLength).toBe(100_000);
    expect(renderPlaceholders('{a}', () => 'x'.repeat(maxRenderedLength)).text).toHaveLength(maxRenderedLength);
    expect(() => renderPlaceholders('{a}!', () => 'x'.repeat(maxRenderedLength))).toThrow(
      'the rendered text would be longer than 100,000 characters',
    );
  });

  it('asks for and writes out each name once, however often it appears', () => {
    const asked: string[] = [];
    const values = (name: string) => {
      asked.push(name);
      return { nested: [1, 2] };
    };
    const { text } = renderPlaceholders('{a} {a} {b} {a}', values);
    expect(text).toBe('{"nested":[1,2]} {"nested":[1,2]} {"nested":[1,2]} {"nested":[1,2]}');
    expect(asked).toEqual(['a', 'b']);
  });
});

describe('renderStepTexts: one budget for the message a step sends (decision 0005)', () => {
  const email = { id: 1, type: 'email' as const, subject: '{a}', content: '{b}', delay: 0 };
  const values = (a: number, b: number) => (name: string) => 'x'.repeat(name === 'a' ? a : b);

  it("counts an email's subject and content together against 100,000 characters", () => {
    const { texts } = renderStepTexts(email, values(50_000, 50_000));
    expect([texts.subject?.length, texts.content?.length, texts.message]).toEqual([50_000, 50_000, null]);
    // Each text alone is within 100,000; together they are not.
    expect(() => renderStepTexts(email, values(60_000, 60_000))).toThrow(RenderedTooLong);
  });

  it('renders only the text the step type sends, and shares a budget it is given', () => {
    const step = { id: 2, type: 'linkedin_message' as const, message: 'Hi {a}', subject: '{b}', delay: 0 };
    const budget = { remaining: 10 };
    expect(renderStepTexts(step, () => 'Ada', budget)).toEqual({
      texts: { subject: null, content: null, message: 'Hi Ada' },
      missing: [],
    });
    expect(budget.remaining).toBe(4);
    expect(() => renderStepTexts(step, () => 'Ada', budget)).toThrow(RenderedTooLong);
  });
});
