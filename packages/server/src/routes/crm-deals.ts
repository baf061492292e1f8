/**
 * Tag CRM, deals: list with filters, create, get, update. The stage decides the pipeline,
 * the default probability and the close date (domain/deal-stage.ts); every ID in a body must
 * belong to the organization (`INVALID_STAGE`, or `VALIDATION_ERROR` with `type: not_found`).
 */
import { closeDateAfterMove, closeDateOnCreate } from '../domain/deal-stage.ts';
import { ApiError, type ValidationIssue, validationError } from '../http/api-error.ts';
import type { DealRecord, LeadRecord, StageRecord } from '../store/records.ts';
import type { DealStore, Store } from '../store/types.ts';
import { dealView } from '../views/deal.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';
import { newId } from '../domain/ids.ts';

type DealPatch = Parameters<DealStore['update']>[2];

export const dealHandlers: PartialHandlers = {
  async listDeals({ query, auth }, { store }) {
    const organizationId = auth.organization.id;
    const page = pageRequest(query, 50);
    const result = await store.deals.list(organizationId, {
      ...page,
      // Omitted and null both mean "no filter".
      stage_id: query.stage_id ?? undefined,
      owner_id: query.owner_id ?? undefined,
      lead_id: query.lead_id ?? undefined,
    });
    const leads = await liveLeads(store, organizationId, result.items);
    const deals = { ...result, items: result.items.map((d) => dealView(d, leadOf(d, leads))) };
    return { status: 200, body: pageEnvelope('deals', deals, page, 'Deals retrieved') };
  },

  async createDeal({ body, auth, now }, { store }) {
    const organizationId = auth.organization.id;
    // One transaction, the lead locked from its check to the insert (peopleProblem).
    const { record, lead } = await store.transaction(async (tx) => {
      await assertPeopleInOrganization(tx, organizationId, body);
      // `stage_id: null` is read like an omitted one: the default pipeline's first stage.
      const stage = body.stage_id
        ? await findStage(tx, organizationId, body.stage_id)
        : await defaultFirstStage(tx, organizationId);
      const at = now.toISOString();
      const record: DealRecord = {
        id: newId(),
        organization_id: organizationId,
        name: body.name,
        lead_id: body.lead_id ?? null,
        pipeline_id: stage?.pipeline_id ?? null,
        stage_id: stage?.id ?? null,
        owner_id: body.owner_id ?? null,
        value: body.value ?? null,
        probability: body.probability === undefined ? (stage?.probability ?? null) : body.probability,
        expected_close_date: recordTime(body.expected_close_date ?? null, 'body.expected_close_date'),
        actual_close_date: closeDateOnCreate(stage?.outcome ?? null, at),
        notes: body.notes ?? null,
        custom_fields: body.custom_fields ?? null,
        metadata: body.metadata ?? null,
        created_at: at,
        updated_at: at,
      };
      await tx.deals.insert(record);
      const lead = record.lead_id ? await tx.leads.get(organizationId, record.lead_id) : null;
      return { record, lead };
    });
    return { status: 201, body: { success: true, message: 'Deal created', deal: dealView(record, lead) } };
  },

  async getDeal({ path, auth }, { store }) {
    const deal = await store.deals.get(auth.organization.id, path.deal_id);
    if (!deal) throw dealNotFound(path.deal_id);
    const lead = deal.lead_id ? await store.leads.get(auth.organization.id, deal.lead_id) : null;
    return { status: 200, body: { success: true, deal: dealView(deal, lead) } };
  },

  async updateDeal({ path, body, auth, now }, { store }) {
    const organizationId = auth.organization.id;
    const at = now.toISOString();
    const updated = await store.transaction(async (tx) => {
      // The lead first (see peopleProblem), its refusal after the deal's own 404.
      const people = await peopleProblem(tx, organizationId, body);
      // Locked: the close date depends on the stage the deal is leaving.
      const deal = await tx.deals.get(organizationId, path.deal_id, { forUpdate: true });
      if (!deal) throw dealNotFound(path.deal_id);
      if (people) throw people;
      const patch: DealPatch = {
        name: body.name,
        lead_id: body.lead_id,
        owner_id: body.owner_id,
        value: body.value,
        probability: body.probability,
        expected_close_date:
          body.expected_close_date === undefined
            ? undefined
            : recordTime(body.expected_close_date, 'body.expected_close_date'),
        notes: body.notes,
        custom_fields: body.custom_fields,
        metadata: body.metadata,
        updated_at: at,
      };
      // A body that leaves the stage as it is (absent, or the current one) leaves the
      // pipeline, the probability and the close date alone.
      if (body.stage_id !== undefined && body.stage_id !== deal.stage_id) {
        const target = body.stage_id === null ? null : await findStage(tx, organizationId, body.stage_id);
        const leaving = deal.stage_id ? await tx.pipelines.getStage(organizationId, deal.stage_id) : null;
        patch.stage_id = target?.id ?? null;
        patch.pipeline_id = target?.pipeline_id ?? null;
        patch.actual_close_date = closeDateAfterMove(
          leaving?.outcome ?? null,
          target?.outcome ?? null,
          deal.actual_close_date,
          at,
        );
        // No stage has no default probability: the deal keeps its own.
        if (body.probability === undefined && target) patch.probability = target.probability;
      }
      return (await tx.deals.update(organizationId, deal.id, patch)) ?? deal;
    });
    const lead = updated.lead_id ? await store.leads.get(organizationId, updated.lead_id) : null;
    return { status: 200, body: { success: true, message: 'Deal updated', deal: dealView(updated, lead) } };
  },
};

function dealNotFound(dealId: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Deal ${dealId} not found.`);
}

/** A stage of one of the organization's pipelines, or `400 INVALID_STAGE`. */
async function findStage(store: Store, organizationId: string, stageId: string): Promise<StageRecord> {
  const stage = await store.pipelines.getStage(organizationId, stageId);
  if (!stage) {
    throw new ApiError(
      400,
      'INVALID_STAGE',
      `Stage ${stageId} is not a stage of a pipeline of this organization. Use a stage ID from GET /v1/crm/pipelines/{pipeline_id}.`,
    );
  }
  return stage;
}

/** The first stage of the default pipeline; null when the organization has none (the deal gets no stage). */
async function defaultFirstStage(store: Store, organizationId: string): Promise<StageRecord | null> {
  const pipeline = await store.pipelines.getDefault(organizationId);
  if (!pipeline) return null;
  const [first = null] = await store.pipelines.listStages(pipeline.id);
  return first;
}

/** `lead_id` must be a live lead and `owner_id` a member of the organization. */
async function assertPeopleInOrganization(
  store: Store,
  organizationId: string,
  body: { lead_id?: string | null; owner_id?: string | null },
): Promise<void> {
  const problem = await peopleProblem(store, organizationId, body);
  if (problem) throw problem;
}

/**
 * Why `lead_id` or `owner_id` is refused, or null. The lead is locked `for share` in the
 * caller's transaction, where the deal is written: an erasure of the lead waits for the deal
 * and scrubs it, or comes first and the lead is not found. Locks are taken lead first, then
 * deal, in the order an erasure takes them, so that the two cannot deadlock.
 */
async function peopleProblem(
  store: Store,
  organizationId: string,
  body: { lead_id?: string | null; owner_id?: string | null },
): Promise<ApiError | null> {
  const issues: ValidationIssue[] = [];
  const summaries: string[] = [];
  if (body.lead_id && !(await store.leads.get(organizationId, body.lead_id, { lock: 'share' }))) {
    issues.push({ field: 'body.lead_id', message: 'lead not found', type: 'not_found' });
    summaries.push('body.lead_id is not a lead of this organization');
  }
  if (body.owner_id && !(await store.organizations.getMember(organizationId, body.owner_id))) {
    issues.push({ field: 'body.owner_id', message: 'member not found', type: 'not_found' });
    summaries.push('body.owner_id is not a member of this organization');
  }
  return issues.length > 0 ? validationError(issues, `Request validation failed: ${summaries.join('; ')}.`) : null;
}

/** Records hold UTC (`...Z`), whatever offset the caller used, so every backend stores the same instant. */
function recordTime(value: string | null, field: string): string | null {
  if (value === null) return null;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) {
    throw validationError([{ field, message: 'must be a valid date-time', type: 'format' }]);
  }
  return time.toISOString();
}

/** The live leads of `deals`, by ID: a deleted lead is absent, so its deals show `lead: null`. */
async function liveLeads(store: Store, organizationId: string, deals: DealRecord[]): Promise<Map<string, LeadRecord>> {
  const ids = [...new Set(deals.flatMap((d) => (d.lead_id ? [d.lead_id] : [])))];
  const leads = ids.length > 0 ? await store.leads.getMany(organizationId, ids) : [];
  return new Map(leads.map((lead) => [lead.id, lead]));
}

function leadOf(deal: DealRecord, leads: Map<string, LeadRecord>): LeadRecord | null {
  return deal.lead_id ? (leads.get(deal.lead_id) ?? null) : null;
}
