/** The blank sequence templates: the document's example, and valid by the sequence rules. */
import { loadBundledDocument } from '@ocs/openapi/support';
import { describe, expect, it } from 'vitest';
import { sequenceChannels } from '../../src/domain/channels.ts';
import { sequenceIssues } from '../../src/domain/sequence-rules.ts';
import { sequenceTemplates } from '../../src/domain/sequence-templates.ts';

function documentExample(path: string): unknown {
  const document = loadBundledDocument() as { paths: Record<string, unknown> };
  const operation = (document.paths[path] as Record<string, unknown>).get as {
    responses: { '200': { content: { 'application/json': { examples: { templates: { value: unknown } } } } } };
  };
  return operation.responses['200'].content['application/json'].examples.templates.value;
}

describe('sequence templates', () => {
  it('are the templates of the document’s examples, on both paths', () => {
    for (const path of ['/sequence-templates', '/campaigns/sequence-templates']) {
      expect(documentExample(path)).toEqual({ success: true, templates: sequenceTemplates });
    }
  });

  it('each pass every structural rule, with unique ids and the channels they declare', () => {
    expect(new Set(sequenceTemplates.map((t) => t.id)).size).toBe(sequenceTemplates.length);
    for (const template of sequenceTemplates) {
      expect(sequenceIssues(template.sequence), template.id).toEqual([]);
      expect(sequenceChannels(template.sequence), template.id).toEqual(template.channels);
    }
  });
});
