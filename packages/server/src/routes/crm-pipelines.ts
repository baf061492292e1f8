/** Tag CRM, pipelines: list the active ones, get one with its stages, update (default and active rules). */
import { defaultPipelineIssues } from '../domain/pipeline-default.ts';
import { ApiError, validationError } from '../http/api-error.ts';
import { UniqueViolation } from '../store/errors.ts';
import type { PipelineRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { pipelineDetailView, pipelineView } from '../views/pipeline.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';

export const pipelineHandlers: PartialHandlers = {
  async listPipelines({ query, auth }, { store }) {
    const page = pageRequest(query, 100);
    const result = await store.pipelines.listActive(auth.organization.id, page);
    const pipelines = { ...result, items: result.items.map(pipelineView) };
    return { status: 200, body: pageEnvelope('pipelines', pipelines, page, 'Pipelines retrieved') };
  },

  async getPipeline({ path, auth }, { store }) {
    const pipeline = await findPipeline(store, auth.organization.id, path.pipeline_id);
    const stages = await store.pipelines.listStages(pipeline.id);
    return { status: 200, body: { success: true, pipeline: pipelineDetailView(pipeline, stages) } };
  },

  async updatePipeline({ path, body, auth, now }, { store }) {
    const organizationId = auth.organization.id;
    const at = now.toISOString();
    const updated = await retryingUniqueViolations(() =>
      store.transaction(async (tx) => {
        // Lock every pipeline of the organization: the default moves between rows, and two
        // concurrent changes must not both decide from the same old default.
        const all = await tx.pipelines.listAll(organizationId, { forUpdate: true });
        const pipeline = all.find((p) => p.id === path.pipeline_id);
        if (!pipeline) throw pipelineNotFound(path.pipeline_id);
        const issues = defaultPipelineIssues(pipeline, body);
        if (issues.length > 0) {
          const advice = issues.some((i) => i.field === 'body.is_active')
            ? '; make another pipeline the default first'
            : '';
          throw validationError(
            issues,
            `Request validation failed: ${issues.map((i) => i.message).join('; ')}${advice}.`,
          );
        }
        if (body.is_default === true && !pipeline.is_default) {
          // Clear the old default before setting the new one (the unique index allows one).
          for (const previous of all.filter((p) => p.is_default)) {
            await tx.pipelines.update(organizationId, previous.id, { is_default: false, updated_at: at });
          }
        }
        const saved = await tx.pipelines.update(organizationId, pipeline.id, {
          name: body.name,
          is_active: body.is_active,
          is_default: body.is_default,
          updated_at: at,
        });
        return saved ?? pipeline;
      }),
    );
    const stages = await store.pipelines.listStages(updated.id);
    return {
      status: 200,
      body: { success: true, message: 'Pipeline updated', pipeline: pipelineDetailView(updated, stages) },
    };
  },
};

/**
 * Runs `work` again when it collided with a concurrent write (a pipeline inserted as default
 * while this transaction ran: the lock covers only existing rows). Fresh reads then decide.
 */
async function retryingUniqueViolations<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof UniqueViolation) || attempt >= attempts) throw error;
    }
  }
}

/** The pipeline, or `404 NOT_FOUND` (also for another organization's pipeline). */
async function findPipeline(store: Store, organizationId: string, pipelineId: string): Promise<PipelineRecord> {
  const pipeline = await store.pipelines.get(organizationId, pipelineId);
  if (!pipeline) throw pipelineNotFound(pipelineId);
  return pipeline;
}

function pipelineNotFound(pipelineId: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Pipeline ${pipelineId} not found.`);
}
