/** The API's AiField object from an AI field record: its fields, and the extra ones the caller sent. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { AiFieldRecord } from '../store/records.ts';

export function aiFieldView(record: AiFieldRecord): Schemas['AiField'] {
  return {
    // Extra properties first, so that none can stand in for a field of the record.
    ...record.extra,
    id: record.id,
    field_name: record.field_name,
    ai_instructions: record.ai_instructions,
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
    data_sources: record.data_sources,
    fallback_value: record.fallback_value,
    field_description: record.field_description,
    is_active: record.is_active,
  };
}
