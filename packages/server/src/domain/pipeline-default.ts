/**
 * An organization has exactly one active default pipeline: it is where `POST /crm/deals`
 * puts a deal given no stage. `PATCH /crm/pipelines/{pipeline_id}` may move the default to
 * another pipeline (clearing the old one), but never leave the organization without one.
 */
import type { ValidationIssue } from '../http/api-error.ts';

/**
 * What is wrong with applying `change` to a pipeline in state `current`, as the API's
 * validation issues (`type: default_pipeline`); empty when the change is allowed.
 *
 * @example
 * defaultPipelineIssues({ is_active: true, is_default: true }, { is_active: false });
 * // [{ field: 'body.is_active', message: 'the default pipeline cannot be deactivated', ... }]
 */
export function defaultPipelineIssues(
  current: { is_active: boolean; is_default: boolean },
  change: { is_active?: boolean; is_default?: boolean },
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (current.is_default && change.is_default === false) {
    issues.push({
      field: 'body.is_default',
      message: 'the default pipeline cannot stop being the default; make another pipeline the default instead',
      type: 'default_pipeline',
    });
  }
  // The default stays the default whatever the body says (unsetting it is refused above).
  const willBeDefault = current.is_default || change.is_default === true;
  const willBeActive = change.is_active ?? current.is_active;
  if (willBeDefault && !willBeActive) {
    issues.push(
      change.is_active === false
        ? {
            field: 'body.is_active',
            message: 'the default pipeline cannot be deactivated',
            type: 'default_pipeline',
          }
        : {
            field: 'body.is_default',
            message: 'a deactivated pipeline cannot be made the default unless the same body sets is_active: true',
            type: 'default_pipeline',
          },
    );
  }
  return issues;
}
