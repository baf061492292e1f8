/** The API's Pipeline (lists), PipelineDetail (with stages in order) and Stage objects. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { PipelineRecord, StageRecord } from '../store/records.ts';

export function pipelineView(record: PipelineRecord): Schemas['Pipeline'] {
  return {
    id: record.id,
    name: record.name,
    is_active: record.is_active,
    is_default: record.is_default,
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
  };
}

export function stageView(record: StageRecord): Schemas['Stage'] {
  return {
    id: record.id,
    pipeline_id: record.pipeline_id,
    name: record.name,
    position: record.position,
    probability: record.probability,
    outcome: record.outcome,
  };
}

/** `stages` must be the pipeline's stages by position (the store's order). */
export function pipelineDetailView(record: PipelineRecord, stages: StageRecord[]): Schemas['PipelineDetail'] {
  return { ...pipelineView(record), stages: stages.map(stageView) };
}
