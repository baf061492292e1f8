/** Exactly one active default pipeline: which changes are refused, and on which field. */
import { describe, expect, it } from 'vitest';
import { defaultPipelineIssues } from '../../src/domain/pipeline-default.ts';

const defaultActive = { is_active: true, is_default: true };
const otherActive = { is_active: true, is_default: false };
const otherInactive = { is_active: false, is_default: false };
const fields = (issues: ReturnType<typeof defaultPipelineIssues>) => issues.map((i) => [i.field, i.type]);

describe('defaultPipelineIssues', () => {
  it('allows renames, moving the default, and deactivating another pipeline', () => {
    expect(defaultPipelineIssues(defaultActive, {})).toEqual([]);
    expect(defaultPipelineIssues(defaultActive, { is_default: true, is_active: true })).toEqual([]);
    expect(defaultPipelineIssues(otherActive, { is_default: true })).toEqual([]);
    expect(defaultPipelineIssues(otherActive, { is_active: false })).toEqual([]);
    expect(defaultPipelineIssues(otherActive, { is_default: false })).toEqual([]);
    expect(defaultPipelineIssues(otherInactive, { is_default: true, is_active: true })).toEqual([]);
  });

  it('refuses unsetting the default', () => {
    expect(fields(defaultPipelineIssues(defaultActive, { is_default: false }))).toEqual([
      ['body.is_default', 'default_pipeline'],
    ]);
  });

  it('refuses deactivating the default, or making a pipeline default while deactivating it', () => {
    expect(fields(defaultPipelineIssues(defaultActive, { is_active: false }))).toEqual([
      ['body.is_active', 'default_pipeline'],
    ]);
    expect(fields(defaultPipelineIssues(otherActive, { is_default: true, is_active: false }))).toEqual([
      ['body.is_active', 'default_pipeline'],
    ]);
  });

  it('refuses making a deactivated pipeline the default unless the body reactivates it', () => {
    expect(fields(defaultPipelineIssues(otherInactive, { is_default: true }))).toEqual([
      ['body.is_default', 'default_pipeline'],
    ]);
  });

  it('reports every broken rule at once', () => {
    expect(fields(defaultPipelineIssues(defaultActive, { is_default: false, is_active: false }))).toEqual([
      ['body.is_default', 'default_pipeline'],
      ['body.is_active', 'default_pipeline'],
    ]);
  });
});
