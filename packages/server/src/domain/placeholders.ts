/**
 * Placeholders in step text: `{first_name}`, `{company}`, any lead field, a key of the
 * lead's `custom_fields`, or the `field_name` of an active AI field (`{icebreaker}`). One
 * parser and one renderer, shared by the preflight (which names may appear) and the preview
 * (what they become for one lead).
 */
import { groupedDigits } from './grouped-digits.ts';
import { leadDataFields } from './lead-rules.ts';
import type { SequenceStep } from '../store/records.ts';

/** A name as an AI field's `field_name` may be: a letter, then letters, digits, underscores. */
const placeholderPattern = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The lead record's own fields a placeholder may name (section 6's lead object). */
export const leadFieldNames: readonly string[] = leadDataFields;

const leadFields = new Set(leadFieldNames);

/** The text fields of a step that may hold placeholders, in the order they are rendered. */
export const stepTextFields = ['subject', 'content', 'message'] as const;
export type StepTextField = (typeof stepTextFields)[number];

/**
 * The text a step of this type sends: an email its subject and content, a connection request
 * or a LinkedIn message its message, a profile view or a conditional nothing. Other fields
 * on a step are never sent, so their placeholders do not count.
 */
export function sentTextFields(type: SequenceStep['type']): readonly StepTextField[] {
  if (type === 'email') return ['subject', 'content'];
  if (type === 'linkedin_connection' || type === 'linkedin_message') return ['message'];
  return [];
}

/** Placeholder names in `text`, each once, in order of first appearance. */
export function parsePlaceholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(placeholderPattern)) names.add(match[1] as string);
  return [...names];
}

/** Placeholder names in the text a step sends, each once, in order of first appearance. */
export function stepPlaceholders(step: SequenceStep): string[] {
  const names = new Set<string>();
  for (const field of sentTextFields(step.type)) {
    const text = step[field];
    if (typeof text === 'string') for (const name of parsePlaceholders(text)) names.add(name);
  }
  return [...names];
}

/** What a placeholder stands for; `undefined` and `null` mean it has no value. */
export type PlaceholderValues = (name: string) => unknown;

/**
 * The most characters rendering may produce: for one message the engine sends (an email's
 * subject and content together), and for all the messages of one preview together, so that
 * a preview of one step (`step_id`) refuses exactly the messages the engine does not send.
 * A placeholder repeats its value wherever it appears, so a step's text of 300 KB (100,000
 * placeholders) and a custom field of 1,000 characters rendered to 100 MB, and past V8's
 * longest string the preview answered 500 or the process ran out of memory (decision 0005).
 * 100,000 characters (a million, then per text until decision 0005's "One budget per
 * message") is some 20 times the longest cold email, past what Gmail shows before it clips
 * a message (102 KB) and 12 times a LinkedIn message (8,000); written as JSON it takes at
 * most 600 KB (6 bytes a character), so a preview answers less than a request may send.
 */
export const maxRenderedLength = 100_000;

/** What may still be rendered: one per message in the engine, one per answer in the preview. */
export interface RenderBudget {
  remaining: number;
}

/** A budget of `maxRenderedLength`, for one message (or one preview answer). */
export const renderBudget = (): RenderBudget => ({ remaining: maxRenderedLength });

/** Rendering would produce more than its budget: nothing was rendered. */
export class RenderedTooLong extends Error {
  constructor(readonly limit: number) {
    super(`the rendered text would be longer than ${groupedDigits(limit)} characters`);
    this.name = 'RenderedTooLong';
  }
}

/**
 * `text` with every placeholder replaced by its value. A placeholder without a value (or
 * with an empty one) becomes the empty string and is reported in `missing`, so a preview
 * shows exactly what would be sent and what data is lacking. Throws `RenderedTooLong` once
 * the text would pass `budget` (by default `maxRenderedLength` for this text alone), before
 * building it; what it renders is taken from the budget.
 */
export function renderPlaceholders(
  text: string,
  values: PlaceholderValues,
  budget: RenderBudget = renderBudget(),
): { text: string; missing: string[] } {
  const missing = new Set<string>();
  // Each name's text once: an object value is JSON, made once however often it appears.
  const texts = new Map<string, string>();
  const parts: string[] = [];
  let length = 0;
  let from = 0;
  const take = (part: string) => {
    length += part.length;
    if (length > budget.remaining) throw new RenderedTooLong(maxRenderedLength);
    parts.push(part);
  };
  for (const match of text.matchAll(placeholderPattern)) {
    const name = match[1] as string;
    let value = texts.get(name);
    if (value === undefined) {
      value = valueText(values(name)) ?? '';
      if (value === '') missing.add(name);
      texts.set(name, value);
    }
    take(text.slice(from, match.index));
    take(value);
    from = match.index + match[0].length;
  }
  take(text.slice(from));
  budget.remaining -= length;
  return { text: parts.join(''), missing: [...missing] };
}

/**
 * The texts `step` sends (`sentTextFields`), rendered for one lead within one `budget`: what
 * the engine sends and the preview shows, so both count the same characters. By default the
 * budget is one message's; the preview passes its answer's.
 */
export function renderStepTexts(
  step: SequenceStep,
  values: PlaceholderValues,
  budget: RenderBudget = renderBudget(),
): { texts: Record<StepTextField, string | null>; missing: string[] } {
  const texts: Record<StepTextField, string | null> = { subject: null, content: null, message: null };
  const missing = new Set<string>();
  for (const field of sentTextFields(step.type)) {
    const text = step[field];
    if (typeof text !== 'string') continue;
    const result = renderPlaceholders(text, values, budget);
    texts[field] = result.text;
    for (const name of result.missing) missing.add(name);
  }
  return { texts, missing: [...missing] };
}

/** Whether a value renders as text (`valueText` not null), without writing an object out. */
function hasValue(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** The text a value renders as, or null when it counts as no value. */
export function valueText(value: unknown): string | null {
  if (!hasValue(value)) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // Objects and lists in custom fields have no natural text; JSON is at least faithful.
  return JSON.stringify(value);
}

/** An AI field as placeholders see it. */
export interface PlaceholderAiField {
  field_name: string;
  fallback_value: string | null;
  is_active: boolean;
}

/**
 * The values of a lead's placeholders: the lead's own fields first, then its
 * `custom_fields`, then active AI fields, which the reference server fills with their
 * `fallback_value` (no model is configured). An inactive AI field has no value.
 */
export function leadPlaceholderValues(lead: object, aiFields: readonly PlaceholderAiField[]): PlaceholderValues {
  const fields = lead as Record<string, unknown>;
  const ai = new Map(aiFields.filter((f) => f.is_active).map((f) => [f.field_name, f.fallback_value]));
  return (name) => {
    if (leadFields.has(name) && hasValue(fields[name])) return fields[name];
    const custom = customFieldValue(fields, name);
    if (hasValue(custom)) return custom;
    return ai.get(name) ?? null;
  };
}

/**
 * The lead's custom field `name`, or undefined. Only the record's own fields: a step's
 * `{__proto__}` or `{constructor}` looked up with `custom[name]` found Object.prototype's
 * members and rendered `{}` into sent messages (found by an attack).
 */
export function customFieldValue(lead: Record<string, unknown>, name: string): unknown {
  const custom = lead.custom_fields;
  return isPlainObject(custom) && Object.hasOwn(custom, name) ? custom[name] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
