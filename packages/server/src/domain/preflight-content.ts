/**
 * The preflight checks of what the campaign sends: `sequence`, `step_content`, `variables`
 * and `lead_data_coverage`.
 */
import type { Sequence } from '../store/records.ts';
import { isPlainObject, leadFieldNames, leadPlaceholderValues, stepPlaceholders, valueText } from './placeholders.ts';
import {
  type CheckResult,
  checkResult,
  listText,
  plural,
  type PreflightInput,
  type PreflightIssue,
} from './preflight-report.ts';
import { sequenceIssues, walkSteps } from './sequence-rules.ts';
import { countSteps, storedSequence } from './sequence-steps.ts';

/** LinkedIn cuts connection notes longer than this (a warning: the request still goes). */
export const maxConnectionNoteLength = 300;

const sequenceRoute = 'PUT /v1/campaigns/{campaign_id}/sequence';
const stepRoute = 'PATCH /v1/campaigns/{campaign_id}/sequence/steps/{step_id}';

export function contentChecks(input: PreflightInput): CheckResult[] {
  const sequence = storedSequence(input.campaign.sequence);
  return [sequenceCheck(sequence), stepContentCheck(sequence), ...placeholderChecks(sequence, input)];
}

function sequenceCheck(sequence: Sequence | null): CheckResult {
  const meta = { id: 'sequence', label: 'Sequence', tab: 'sequence', route: sequenceRoute };
  const issues: PreflightIssue[] = [];
  const stepsA = sequence ? countSteps(sequence, 'a') : 0;
  const stepsB = sequence ? countSteps(sequence, 'b') : 0;
  if (!sequence || sequence.variation_a.length === 0) {
    issues.push({
      code: 'NO_SEQUENCE',
      severity: 'blocking',
      message: sequence ? 'variation_a of the sequence has no steps.' : 'The campaign has no sequence.',
      fix: `Create the sequence with ${sequenceRoute} (GET /v1/sequence-templates has blank ones to start from).`,
    });
    return checkResult(meta, issues, sequence ? 'variation_a has no steps.' : 'The campaign has no sequence.');
  }
  const broken = sequenceIssues(sequence);
  if (broken.length > 0) {
    issues.push({
      code: 'SEQUENCE_INVALID',
      severity: 'blocking',
      message: `The sequence breaks ${plural(broken.length, 'structural rule')}: ${broken
        .map((issue) => `${issue.field} ${issue.message}`)
        .join('; ')}.`,
      fix: `Send the corrected sequence with ${sequenceRoute}.`,
    });
  }
  const size =
    stepsB > 0
      ? `variation_a has ${plural(stepsA, 'step')} and variation_b ${plural(stepsB, 'step')} (${stepsA + stepsB} in all)`
      : `variation_a has ${plural(stepsA, 'step')}`;
  return checkResult(
    meta,
    issues,
    broken.length > 0
      ? `${size}; ${plural(broken.length, 'structural rule is', 'structural rules are')} broken.`
      : `${size} and ${stepsB > 0 ? 'they pass' : 'passes'} the structural rules.`,
  );
}

function stepContentCheck(sequence: Sequence | null): CheckResult {
  const meta = { id: 'step_content', label: 'Step content', tab: 'sequence', route: stepRoute };
  if (!sequence) return checkResult(meta, [], 'No steps to check (the campaign has no sequence).');
  const issues: PreflightIssue[] = [];
  for (const { step } of walkSteps(sequence)) {
    const missing: string[] = [];
    if (step.type === 'email') {
      if (!hasText(step.subject)) missing.push('subject');
      if (!hasText(step.content)) missing.push('content');
    }
    if (step.type === 'linkedin_message' && !hasText(step.message)) missing.push('message');
    if (missing.length > 0) {
      const kind = step.type === 'email' ? 'Email' : 'LinkedIn message';
      issues.push({
        code: 'STEP_CONTENT_MISSING',
        severity: 'blocking',
        message: `${kind} step ${step.id} has no ${listText(missing)}.`,
        fix: `Write it with ${stepRoute.replace('{step_id}', String(step.id))}.`,
      });
    }
    if (step.type === 'linkedin_connection' && (step.message?.length ?? 0) > maxConnectionNoteLength) {
      issues.push({
        code: 'CONNECTION_NOTE_TOO_LONG',
        severity: 'warning',
        message: `The connection note of step ${step.id} has ${step.message?.length} characters; LinkedIn cuts notes after ${maxConnectionNoteLength}.`,
        fix: `Shorten it to ${maxConnectionNoteLength} characters or fewer with ${stepRoute.replace('{step_id}', String(step.id))}.`,
      });
    }
  }
  return checkResult(
    meta,
    issues,
    issues.length === 0
      ? `Every email step has a subject and content; every LinkedIn message has text; connection notes are within ${maxConnectionNoteLength} characters.`
      : `${plural(issues.length, 'step needs', 'steps need')} attention.`,
  );
}

type PlaceholderKind = 'lead' | 'ai' | 'custom' | 'inactive_ai' | 'unknown';

/** The `variables` and `lead_data_coverage` checks, which share how each placeholder is classified. */
function placeholderChecks(sequence: Sequence | null, input: PreflightInput): CheckResult[] {
  // Each placeholder, with the steps that use it, in order of first use.
  const uses = new Map<string, number[]>();
  if (sequence) {
    for (const { step } of walkSteps(sequence)) {
      for (const name of stepPlaceholders(step)) uses.set(name, [...(uses.get(name) ?? []), step.id]);
    }
  }
  const leadFields = new Set(leadFieldNames);
  const customFields = new Set(input.leads.flatMap((lead) => Object.keys(customOf(lead))));
  const activeAi = new Map(input.aiFields.filter((f) => f.is_active).map((f) => [f.field_name, f]));
  const inactiveAi = new Set(input.aiFields.filter((f) => !f.is_active).map((f) => f.field_name));
  // The order the preview fills them in: the lead's fields, its custom fields, then AI fields.
  const kindOf = (name: string): PlaceholderKind => {
    if (leadFields.has(name)) return 'lead';
    if (customFields.has(name)) return 'custom';
    if (activeAi.has(name)) return 'ai';
    return inactiveAi.has(name) ? 'inactive_ai' : 'unknown';
  };
  const names = [...uses.keys()];
  const byKind = (kind: PlaceholderKind) => names.filter((name) => kindOf(name) === kind);
  return [variablesCheck(uses, kindOf, byKind), coverageCheck(input, byKind, activeAi)];
}

function variablesCheck(
  uses: Map<string, number[]>,
  kindOf: (name: string) => PlaceholderKind,
  byKind: (kind: PlaceholderKind) => string[],
): CheckResult {
  const meta = {
    id: 'variables',
    label: 'Variables',
    tab: 'ai_fields',
    route: 'POST /v1/campaigns/{campaign_id}/ai-fields',
  };
  const issues: PreflightIssue[] = [];
  for (const [name, stepIds] of uses) {
    const where = `step${stepIds.length === 1 ? '' : 's'} ${listText(stepIds.map(String))}`;
    if (kindOf(name) === 'inactive_ai') {
      issues.push({
        code: 'UNKNOWN_VARIABLE',
        severity: 'blocking',
        message: `{${name}} in ${where} names an inactive AI field, which is neither written nor filled.`,
        fix: `Activate the AI field with PATCH /v1/campaigns/{campaign_id}/ai-fields/{field_id} (is_active: true), or remove {${name}} from the step text.`,
      });
    } else if (kindOf(name) === 'unknown') {
      issues.push({
        code: 'UNKNOWN_VARIABLE',
        severity: 'blocking',
        message: `{${name}} in ${where} is not a lead field, a custom field of an enrolled lead or an active AI field.`,
        fix: `Create an AI field named ${name} with POST /v1/campaigns/{campaign_id}/ai-fields, add ${name} to the leads' custom_fields, or change the step text with ${stepRoute}.`,
      });
    }
  }
  const described = (
    [
      ['lead', 'a lead field', 'lead fields'],
      ['custom', 'a custom field', 'custom fields'],
      ['ai', 'an active AI field', 'active AI fields'],
    ] as const
  )
    .map(([kind, one, many]) => {
      const names = byKind(kind).map((name) => `{${name}}`);
      return names.length === 0 ? '' : `${listText(names)} ${names.length === 1 ? `is ${one}` : `are ${many}`}`;
    })
    .filter((text) => text !== '');
  let detail: string;
  if (uses.size === 0) detail = 'No placeholders are used.';
  else if (issues.length > 0) detail = `${plural(issues.length, 'placeholder has', 'placeholders have')} no source.`;
  else detail = `${described.join('; ')}.`;
  return checkResult(meta, issues, detail);
}

function coverageCheck(
  input: PreflightInput,
  byKind: (kind: PlaceholderKind) => string[],
  activeAi: Map<string, { field_name: string; fallback_value: string | null }>,
): CheckResult {
  const meta = {
    id: 'lead_data_coverage',
    label: 'Lead data coverage',
    tab: 'leads',
    route: 'PATCH /v1/leads/{lead_id}',
  };
  const issues: PreflightIssue[] = [];
  const dataNames = [...byKind('lead'), ...byKind('custom')];
  const total = input.leads.length;
  const lacking: string[] = [];
  if (total > 0) {
    for (const name of dataNames) {
      // Resolved as the preview renders it: an active AI field of the same name fills the gap.
      const values = input.leads.map((lead) => leadPlaceholderValues(lead, input.aiFields)(name));
      const covered = values.filter((value) => valueText(value) !== null).length;
      if (covered === total) continue;
      lacking.push(name);
      const percent = Math.floor((covered / total) * 100);
      issues.push({
        code: 'LOW_LEAD_DATA_COVERAGE',
        severity: 'warning',
        message: `{${name}} has no value for ${total - covered} of ${plural(total, 'enrolled lead')} (${percent}% coverage); it renders empty for them.`,
        fix: `Fill ${name} on those leads with PATCH /v1/leads/{lead_id}, or remove {${name}} from the step text.`,
      });
    }
  }
  const withFallback: string[] = [];
  for (const name of byKind('ai')) {
    if (valueText(activeAi.get(name)?.fallback_value) !== null) {
      withFallback.push(`{${name}}`);
      continue;
    }
    issues.push({
      code: 'AI_FIELD_WITHOUT_FALLBACK',
      severity: 'warning',
      message: `The AI field {${name}} has no fallback_value; where no value is written (no model is configured here) it renders empty.`,
      fix: 'Set a fallback_value with PATCH /v1/campaigns/{campaign_id}/ai-fields/{field_id}.',
    });
  }
  const parts: string[] = [];
  if (total === 0) parts.push('No lead is enrolled yet; coverage is measured once leads are enrolled');
  else if (dataNames.length === 0) parts.push('No lead data is used in the step text');
  else if (lacking.length === 0)
    parts.push(`Every enrolled lead has ${listText(dataNames.map((name) => `a ${name}`))}`);
  else parts.push(`Some enrolled leads have no ${listText(lacking)}`);
  if (withFallback.length > 0) {
    parts.push(
      `${listText(withFallback)} ${withFallback.length === 1 ? 'has a fallback value' : 'have fallback values'}`,
    );
  }
  return checkResult(meta, issues, `${parts.join('; ')}.`);
}

function customOf(lead: { custom_fields?: unknown }): Record<string, unknown> {
  return isPlainObject(lead.custom_fields) ? lead.custom_fields : {};
}

function hasText(value: string | undefined): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
