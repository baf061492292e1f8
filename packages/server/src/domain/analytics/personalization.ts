/**
 * `GET /campaigns/{id}/personalization-quality`: how the placeholders of the messages sent
 * were filled. The engine records, in each sent message's event, how every placeholder of
 * the step's text was filled (`StepRunData.placeholders`, built by `placeholderFills`); this
 * report adds those records up over the analysis's messages.
 */
import type { Schemas } from '../../openapi/types.ts';
import { compareText } from '../collections.ts';
import {
  customFieldValue,
  leadFieldNames,
  type PlaceholderAiField,
  stepPlaceholders,
  valueText,
} from '../placeholders.ts';
import type { PlaceholderFill, SequenceStep } from '../../store/records.ts';
import { placeholderFillSumsOf } from './placeholder-fill-sums.ts';
import { type AnalyticsData, percent } from './population.ts';
import type { PlaceholderFillSums } from '../../store/types.ts';

type PersonalizationField = Schemas['PersonalizationField'];

/** The report from a campaign's rows. */
export function personalizationQuality(
  data: AnalyticsData,
  from: string | null,
): { messages_sent: number; fields: PersonalizationField[] } {
  return personalizationFrom(placeholderFillSumsOf(data, from));
}

/** The report from the campaign's sums (`ActivityStore.placeholderFillSums`): rates, and the order. */
export function personalizationFrom(sums: PlaceholderFillSums): {
  messages_sent: number;
  fields: PersonalizationField[];
} {
  const rows = sums.fields.map((field) => ({ ...field, filled_rate_pct: percent(field.filled, field.uses) }));
  rows.sort((a, b) => b.uses - a.uses || compareText(a.name, b.name));
  return { messages_sent: sums.messages, fields: rows };
}

const leadFields = new Set(leadFieldNames);

/**
 * How each placeholder of `step` (subject, content, message; each name once) is filled for
 * `lead`, resolved as the preview renders it: the lead's own field, then its custom field
 * (`lead`), then an active AI field (`ai`): its generated value when the model gave one
 * (`generated`), else its `fallback_value`, else empty. The engine stores the result in the
 * sent message's event as `data.placeholders`.
 */
export function placeholderFills(
  step: SequenceStep,
  lead: Record<string, unknown>,
  aiFields: readonly PlaceholderAiField[],
  generated: Readonly<Record<string, string>> = {},
): PlaceholderFill[] {
  const active = new Map(aiFields.filter((f) => f.is_active).map((f) => [f.field_name, f]));
  return stepPlaceholders(step).map((name): PlaceholderFill => {
    if (leadFields.has(name) && valueText(lead[name]) !== null) return { name, source: 'lead', fill: 'filled' };
    if (valueText(customFieldValue(lead, name)) !== null) return { name, source: 'lead', fill: 'filled' };
    const ai = active.get(name);
    if (!ai) return { name, source: 'lead', fill: 'empty' };
    if (Object.hasOwn(generated, name) && valueText(generated[name]) !== null)
      return { name, source: 'ai', fill: 'filled' };
    if (valueText(ai.fallback_value) !== null) return { name, source: 'ai', fill: 'fallback' };
    return { name, source: 'ai', fill: 'empty' };
  });
}
