/**
 * The generated operation table agrees with the document, and the generator refuses what
 * the shared caller could not route.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOperationsModule } from '../../../scripts/generate/operations.ts';
import { header } from '../../../scripts/generate/outputs.ts';
import document from '../src/generated/openapi.json' with { type: 'json' };
import { operationTable } from '../src/generated/operations.ts';
import type { Operation } from '../src/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const source = readFileSync(join(import.meta.dirname, '..', 'src', 'generated', 'operations.ts'), 'utf8');
const methods = ['get', 'put', 'post', 'patch', 'delete'];
const documented = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  methods
    .filter((method) => item[method])
    .map((method) => ({ path, method: method.toUpperCase(), op: item[method] as Json })),
);

describe('the generated operations', () => {
  it('are one function per operation of the document (the 50 of the specification and 6 sandbox ones)', () => {
    expect(documented).toHaveLength(56);
    expect(documented.filter(({ op }) => op['x-sandbox'] === true)).toHaveLength(6);
    const table = operationTable as unknown as Record<string, Operation>;
    expect(Object.keys(table).sort()).toEqual(documented.map(({ op }) => op.operationId).sort());
    for (const { path, method, op } of documented) {
      const operation = table[op.operationId];
      expect(operation).toBeTypeOf('function');
      expect({ method: operation?.method, path: operation?.path }).toEqual({ method, path });
      const parameters = ((op.parameters ?? []) as Json[]).map((parameter) =>
        parameter.$ref
          ? (document.components.parameters as Json)[String(parameter.$ref).split('/').pop() ?? '']
          : parameter,
      );
      expect(operation?.query).toEqual(parameters.filter((p) => p.in === 'query').map((p) => p.name));
    }
  });

  it('mark the eight list operations (six of the specification, two sandbox) with their items key', () => {
    const lists = Object.values(operationTable as unknown as Record<string, Operation>)
      .filter((operation) => operation.items)
      .map((operation) => [operation.operationId, operation.items]);
    expect(Object.fromEntries(lists)).toEqual({
      listAccounts: 'accounts',
      listLeads: 'leads',
      listCampaigns: 'campaigns',
      listWebhooks: 'webhooks',
      listPipelines: 'pipelines',
      listDeals: 'deals',
      listSandboxMessages: 'messages',
      listSandboxDeliveries: 'deliveries',
    });
  });

  it('mark the operations that declare an Idempotency-Key (flag 2)', () => {
    const idempotent = documented
      .filter(({ op }) => JSON.stringify(op.parameters).includes('IdempotencyKey'))
      .map(({ op }) => op.operationId);
    // createLead (single or batch) and createCampaign: each sends a key and is retried.
    expect([...idempotent].sort()).toEqual(['createCampaign', 'createLead']);
    expect(source).toContain(
      "export const createCampaign = /* @__PURE__ */ op('createCampaign', 'POST /campaigns', 0, 3);",
    );
    expect(source).toContain("export const createLead = /* @__PURE__ */ op('createLead', 'POST /leads', 0, 3);");
    expect(source).toContain(`export type IdempotentOperationId = ${idempotent.map((id) => `'${id}'`).join(' | ')};`);
  });

  it('carry JSDoc: summary, scope, errors, an example, and @deprecated naming the successor', () => {
    expect(source).toMatch(
      /\/\*\*\n \* Get a campaign\.\n[\s\S]*?Scope `campaigns:read`[\s\S]*?404 [A-Z_, ]*CAMPAIGN_NOT_FOUND[\s\S]*?@example\n \* const \{ campaign, requestId \} = await getCampaign\(client, \{ campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14' \}\);\n \*\/\nexport const getCampaign =/,
    );
    const deprecated = documented.filter(({ op }) => op.deprecated).map(({ op }) => op.operationId);
    expect(deprecated.sort()).toEqual([
      'activateWebhook',
      'createLeadLegacy',
      'deactivateWebhook',
      'listSequenceTemplatesLegacy',
      'listWebhookExamplesLegacy',
    ]);
    const successors = {
      createLeadLegacy: 'createLead',
      listSequenceTemplatesLegacy: 'listSequenceTemplates',
      listWebhookExamplesLegacy: 'listWebhookExamples',
      activateWebhook: 'createWebhook',
      deactivateWebhook: 'disableWebhook',
    };
    for (const [id, successor] of Object.entries(successors)) {
      // Within the JSDoc block right above the export.
      expect(source).toMatch(
        new RegExp(`@deprecated Use \\{@link ${successor}\\}(?:(?!\\*/)[\\s\\S])*\\*/\\nexport const ${id} =`),
      );
    }
    expect(source.match(/@deprecated/g)).toHaveLength(5);
  });
});

describe('the generator', () => {
  const copy = () => structuredClone(document) as Json;

  it('reproduces the checked-in module', () => {
    expect(`${header('//')}${generateOperationsModule(document)}`).toBe(source);
  });

  it('fails on a parameter name used twice in one params object', () => {
    const changed = copy();
    changed.paths['/campaigns'].post.parameters.push({ name: 'name', in: 'query', schema: { type: 'string' } });
    expect(() => generateOperationsModule(changed)).toThrow(
      'createCampaign: parameter name collision: "name" is both a query and a body parameter',
    );
    const pathAndQuery = copy();
    pathAndQuery.paths['/leads/{lead_id}'].delete.parameters.push({
      name: 'lead_id',
      in: 'query',
      schema: { type: 'string' },
    });
    expect(() => generateOperationsModule(pathAndQuery)).toThrow(
      /deleteLead: parameter name collision: "lead_id" is both a path and a query/,
    );
  });

  it('fails on a header parameter that has no place in options', () => {
    const changed = copy();
    changed.paths['/leads'].get.parameters.push({ name: 'X-Tenant', in: 'header', schema: { type: 'string' } });
    expect(() => generateOperationsModule(changed)).toThrow(/listLeads: the header parameter X-Tenant has no place/);
  });

  it('fails on a path or query parameter that is not a scalar (the caller writes each value whole)', () => {
    const changed = copy();
    changed.paths['/leads/{lead_id}'].delete.parameters = [
      { name: 'lead_id', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } },
    ];
    expect(() => generateOperationsModule(changed)).toThrow(/deleteLead: the path parameter lead_id is not a scalar/);
    const query = copy();
    query.paths['/leads'].get.parameters.push({ name: 'tag', in: 'query', schema: { type: 'array' } });
    expect(() => generateOperationsModule(query)).toThrow(/listLeads: the query parameter tag is not a scalar/);
  });

  it('fails on a deprecated operation without a successor', () => {
    const changed = copy();
    const op = changed.paths['/leads/create'].post;
    op.description = 'Deprecated.';
    for (const response of Object.values(op.responses as Json)) delete (response as Json).headers?.Link;
    expect(() => generateOperationsModule(changed)).toThrow(/createLeadLegacy is deprecated but names no successor/);
  });
});
