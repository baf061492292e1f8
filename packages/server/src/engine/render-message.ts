/**
 * A step's message as the lead receives it: its sent text fields rendered with the lead's
 * placeholders (lead fields, custom fields, then AI fields' fallback values, exactly as the
 * preview renders them), and how each placeholder was filled, which the event records for
 * `personalization-quality`. The message renders within one budget (`maxRenderedLength` for
 * its subject and content together), as a preview of its step does: what the preview refuses
 * is what is not sent.
 */
import { placeholderFills } from '../domain/analytics/index.ts';
import { leadPlaceholderValues, type PlaceholderAiField, renderStepTexts } from '../domain/placeholders.ts';
import type { LeadRecord, PlaceholderFill, SequenceStep } from '../store/records.ts';

export interface RenderedMessage {
  subject: string | null;
  body: string;
  placeholders: PlaceholderFill[];
}

export function renderMessage(
  step: SequenceStep,
  lead: LeadRecord,
  aiFields: readonly PlaceholderAiField[],
): RenderedMessage {
  const { texts } = renderStepTexts(step, leadPlaceholderValues(lead, aiFields));
  const fields = lead as unknown as Record<string, unknown>;
  return {
    subject: step.type === 'email' ? texts.subject : null,
    // An email sends its content; a connection request its (optional) note; a LinkedIn message its message.
    body: (step.type === 'email' ? texts.content : texts.message) ?? '',
    placeholders: placeholderFills(step, fields, aiFields),
  };
}
