/** SQL implementations of the pipeline and deal stores. */
import type { DealRecord, PipelineRecord, StageRecord } from '../records.ts';
import type { DealStore, PipelineStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { reportingUniqueViolations } from './errors.ts';
import { insertRow, listPage, updateRow } from './rows.ts';

export function sqlPipelines(client: SqlClient): PipelineStore {
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'pipelines', record));
    },
    async insertStage(record) {
      await insertRow(client, 'stages', record);
    },
    async get(organizationId, id) {
      const [row] = await client.query<PipelineRecord>(
        'select * from pipelines where organization_id = $1 and id = $2',
        [organizationId, id],
      );
      return row ?? null;
    },
    async listActive(organizationId, page) {
      return listPage<PipelineRecord>(
        client,
        {
          from: 'pipelines',
          where: 'organization_id = $1 and is_active',
          params: [organizationId],
          orderBy: 'created_at, id',
        },
        page,
      );
    },
    async listAll(organizationId, options) {
      return client.query<PipelineRecord>(
        `select * from pipelines where organization_id = $1 order by created_at, id${options?.forUpdate ? ' for update' : ''}`,
        [organizationId],
      );
    },
    async getDefault(organizationId) {
      const [row] = await client.query<PipelineRecord>(
        'select * from pipelines where organization_id = $1 and is_default order by created_at, id limit 1',
        [organizationId],
      );
      return row ?? null;
    },
    async update(organizationId, id, patch) {
      return reportingUniqueViolations(() =>
        updateRow<PipelineRecord>(client, 'pipelines', { organization_id: organizationId, id }, patch),
      );
    },
    async listStages(pipelineId) {
      return client.query<StageRecord>('select * from stages where pipeline_id = $1 order by position, id', [
        pipelineId,
      ]);
    },
    async getStage(organizationId, stageId) {
      const [row] = await client.query<StageRecord>('select * from stages where organization_id = $1 and id = $2', [
        organizationId,
        stageId,
      ]);
      return row ?? null;
    },
  };
}

const dealJson = new Set(['custom_fields', 'metadata']);

export function sqlDeals(client: SqlClient): DealStore {
  return {
    async insert(record) {
      await insertRow(client, 'deals', record, dealJson);
    },
    async get(organizationId, id, options) {
      const [row] = await client.query<DealRecord>(
        `select * from deals where organization_id = $1 and id = $2${options?.forUpdate ? ' for update' : ''}`,
        [organizationId, id],
      );
      return row ?? null;
    },
    async list(organizationId, filter) {
      const params: unknown[] = [organizationId];
      let where = 'organization_id = $1';
      for (const column of ['stage_id', 'owner_id', 'lead_id'] as const) {
        if (filter[column] === undefined) continue;
        params.push(filter[column]);
        where += ` and ${column} = $${params.length}`;
      }
      return listPage<DealRecord>(
        client,
        { from: 'deals', where, params, orderBy: 'created_at desc, id desc' },
        filter,
      );
    },
    async update(organizationId, id, patch) {
      return updateRow<DealRecord>(client, 'deals', { organization_id: organizationId, id }, patch, dealJson);
    },
    async eraseLead(organizationId, leadId, anonymise) {
      const deals = await client.query<DealRecord>(
        'select * from deals where organization_id = $1 and lead_id = $2 order by id for update',
        [organizationId, leadId],
      );
      for (const deal of deals) {
        const summary = anonymise(deal);
        await client.query(
          'update deals set name = $2, notes = $3, custom_fields = $4::jsonb, metadata = $5::jsonb where id = $1',
          [
            deal.id,
            summary.name,
            summary.notes,
            summary.custom_fields === null ? null : JSON.stringify(summary.custom_fields),
            summary.metadata === null ? null : JSON.stringify(summary.metadata),
          ],
        );
      }
    },
  };
}
