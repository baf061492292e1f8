/** Memory implementations of the pipeline and deal stores. */
import { UniqueViolation, uniqueConstraints } from '../errors.ts';
import type { PipelineRecord } from '../records.ts';
import type { DealStore, PipelineStore } from '../types.ts';
import type { MemoryState } from './state.ts';
import { compareText, newestFirst, oldestFirst, patchRow, stripUndefined } from './table.ts';

export function memoryPipelines(state: MemoryState): PipelineStore {
  const owned = (organizationId: string, id: string) => {
    const pipeline = state.pipelines.get(id);
    return pipeline && pipeline.organization_id === organizationId ? pipeline : null;
  };
  // The SQL partial unique index `pipelines_one_default`: one default pipeline per organization.
  const assertOneDefault = (row: PipelineRecord) => {
    const taken = state.pipelines.where(
      (p) => p.organization_id === row.organization_id && p.is_default && p.id !== row.id,
    );
    if (row.is_default && taken.length > 0) throw new UniqueViolation(uniqueConstraints.defaultPipeline);
  };
  return {
    async insert(record) {
      assertOneDefault(record);
      state.pipelines.set(record.id, record);
    },
    async insertStage(record) {
      state.stages.set(record.id, record);
    },
    async get(organizationId, id) {
      return owned(organizationId, id);
    },
    async listActive(organizationId, page) {
      return state.pipelines.page((p) => p.organization_id === organizationId && p.is_active, oldestFirst, page);
    },
    async listAll(organizationId) {
      // No lock needed: memory transactions run one at a time.
      return state.pipelines.where((p) => p.organization_id === organizationId).sort(oldestFirst);
    },
    async getDefault(organizationId) {
      return (
        state.pipelines.where((p) => p.organization_id === organizationId && p.is_default).sort(oldestFirst)[0] ?? null
      );
    },
    async update(organizationId, id, patch) {
      const pipeline = owned(organizationId, id);
      if (!pipeline) return null;
      assertOneDefault({ ...pipeline, ...stripUndefined(patch) });
      return patchRow(state.pipelines, id, patch);
    },
    async listStages(pipelineId) {
      return state.stages
        .where((s) => s.pipeline_id === pipelineId)
        .sort((a, b) => a.position - b.position || compareText(a.id, b.id));
    },
    async getStage(organizationId, stageId) {
      const stage = state.stages.get(stageId);
      return stage && stage.organization_id === organizationId ? stage : null;
    },
  };
}

export function memoryDeals(state: MemoryState): DealStore {
  const owned = (organizationId: string, id: string) => {
    const deal = state.deals.get(id);
    return deal && deal.organization_id === organizationId ? deal : null;
  };
  return {
    async insert(record) {
      state.deals.set(record.id, record);
    },
    async get(organizationId, id) {
      return owned(organizationId, id);
    },
    async list(organizationId, filter) {
      return state.deals.page(
        (d) =>
          d.organization_id === organizationId &&
          (filter.stage_id === undefined || d.stage_id === filter.stage_id) &&
          (filter.owner_id === undefined || d.owner_id === filter.owner_id) &&
          (filter.lead_id === undefined || d.lead_id === filter.lead_id),
        newestFirst,
        filter,
      );
    },
    async update(organizationId, id, patch) {
      return owned(organizationId, id) ? patchRow(state.deals, id, patch) : null;
    },
    async eraseLead(organizationId, leadId, anonymise) {
      const deals = state.deals.where((d) => d.organization_id === organizationId && d.lead_id === leadId);
      for (const deal of deals) patchRow(state.deals, deal.id, anonymise(deal));
    },
  };
}
