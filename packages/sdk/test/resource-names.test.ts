/**
 * The generator of the resource groups (scripts/generate/resources.ts): it reproduces the
 * checked-in module, names groups and methods by its rule, lets `x-sdk-method` name a method
 * instead, and refuses what would leave an operation unreachable or two behind one name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateResourcesModule, groupName, methodName } from '../../../scripts/generate/resources.ts';
import { header } from '../../../scripts/generate/outputs.ts';
import document from '../src/generated/openapi.json' with { type: 'json' };
import { resourceGroups } from '../src/generated/resources.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const source = readFileSync(join(import.meta.dirname, '..', 'src', 'generated', 'resources.ts'), 'utf8');
const copy = () => structuredClone(document) as Json;

describe('the rule', () => {
  it('makes a group of each tag, in camelCase', () => {
    expect(['Campaigns', 'AI fields', 'CRM', 'Sandbox', 'Lead-import jobs'].map(groupName)).toEqual([
      'campaigns',
      'aiFields',
      'crm',
      'sandbox',
      'leadImportJobs',
    ]);
  });

  it("names a method by its operationId without the tag's noun, plural or singular", () => {
    expect(methodName('listCampaigns', 'Campaigns')).toBe('list');
    expect(methodName('getCampaign', 'Campaigns')).toBe('get');
    expect(methodName('getCampaignPreflight', 'Campaigns')).toBe('getPreflight');
    expect(methodName('createAiField', 'AI fields')).toBe('create');
    expect(methodName('listSequenceTemplatesLegacy', 'Sequences')).toBe('listTemplatesLegacy');
    expect(methodName('verifyAuth', 'Auth')).toBe('verify');
    expect(methodName('listSandboxMessages', 'Sandbox')).toBe('listMessages');
    expect(methodName('listCategories', 'Categories')).toBe('list');
    expect(methodName('getCategory', 'Categories')).toBe('get');
    // Without the noun after its verb, the operationId itself.
    expect(methodName('listDeals', 'CRM')).toBe('listDeals');
    expect(methodName('previewCampaign', 'Sequences')).toBe('previewCampaign');
  });
});

describe('the generator', () => {
  it('reproduces the checked-in module', () => {
    expect(`${header('//')}${generateResourcesModule(document)}`).toBe(source);
  });

  it('takes x-sdk-method as the name of a method', () => {
    const changed = copy();
    changed.paths['/campaigns/{campaign_id}/queue'].get['x-sdk-method'] = 'getQueue';
    const module = generateResourcesModule(changed);
    expect(module).toContain('    getQueue: getCampaignQueue,\n');
    expect(module).toContain('await ocs.analytics.getQueue(');
    expect(module).not.toContain('getCampaignQueue: getCampaignQueue');
  });

  it('names the successor of a deprecated operation by its resource method', () => {
    expect(source).toMatch(
      /@deprecated Use `ocs\.leads\.create` \(`POST \/leads`\), its successor\.[\s\S]*?createLegacy: createLeadLegacy,/,
    );
  });

  it('refuses one name for two methods of a group, naming both and the way out', () => {
    const changed = copy();
    changed.paths['/campaigns/{campaign_id}'].patch['x-sdk-method'] = 'get';
    expect(() => generateResourcesModule(changed)).toThrow(
      'campaigns.get would be both getCampaign and updateCampaign: name one with x-sdk-method in the document.',
    );
  });

  it('refuses an x-sdk-method that is not a camelCase name, and `then`', () => {
    const changed = copy();
    changed.paths['/campaigns/{campaign_id}/queue'].get['x-sdk-method'] = 'get-queue';
    expect(() => generateResourcesModule(changed)).toThrow(
      'getCampaignQueue: x-sdk-method must be a camelCase name, got "get-queue"',
    );
    changed.paths['/campaigns/{campaign_id}/queue'].get['x-sdk-method'] = 'then';
    expect(() => generateResourcesModule(changed)).toThrow(
      'getCampaignQueue: "then" cannot be a resource method\'s name.',
    );
  });

  it('refuses an operation without a tag, and tags that make no usable group', () => {
    const untagged = copy();
    delete untagged.paths['/auth/verify'].get.tags;
    expect(() => generateResourcesModule(untagged)).toThrow('verifyAuth has no tag');
    const reserved = copy();
    reserved.paths['/auth/verify'].get.tags = ['Client'];
    expect(() => generateResourcesModule(reserved)).toThrow('The tag "Client" gives the group name "client"');
    const twins = copy();
    twins.paths['/auth/verify'].get.tags = ['Ai-Fields'];
    expect(() => generateResourcesModule(twins)).toThrow(
      'The tags "AI fields" and "Ai-Fields" both give the group name "aiFields".',
    );
  });
});

it("the README's table lists every group and method", () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const table = [...readme.matchAll(/^\| `(\w+)` +\| (`\w+`(?:, `\w+`)*) +\|$/gm)].map(([, group, methods]) => [
    group,
    [...(methods ?? '').matchAll(/`(\w+)`/g)].map(([, method]) => method),
  ]);
  expect(Object.fromEntries(table)).toEqual(
    Object.fromEntries(Object.entries(resourceGroups).map(([group, methods]) => [group, Object.keys(methods)])),
  );
});
