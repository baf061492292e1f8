/**
 * Which form of a body with several forms a request meant (`POST /leads`: one lead, or a
 * batch under `leads`), so that a body that matches none is answered with that form's
 * issues (`body.leads[3].email is required`) rather than "must match a schema in anyOf".
 */
import type { BodyForm } from '../openapi/operation-table.ts';

/**
 * The forms whose required fields the body has; when several, those that know every field
 * of the body (a form that refuses unknown fields and lacks one is not meant). The one left,
 * or undefined when none or several are.
 */
export function meantForm(forms: readonly BodyForm[], body: unknown): BodyForm | undefined {
  if (forms.length === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const fields = Object.keys(body);
  let fitting = forms.filter(({ schema }) =>
    ((schema.required as string[] | undefined) ?? []).every((field) => fields.includes(field)),
  );
  if (fitting.length > 1) {
    const knowing = fitting.filter(({ schema }) => {
      const known = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
      return schema.additionalProperties !== false || fields.every((field) => known.includes(field));
    });
    // None knows every field (`{ "leads": [...], "campaign_id": ... }`): the form named by a
    // required field the body has is meant, and its issues say which field is unknown.
    fitting = knowing.length > 0 ? knowing : mostRequiredFields(fitting);
  }
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** The forms with the most required fields (at least one), the others left out. */
function mostRequiredFields(forms: readonly BodyForm[]): BodyForm[] {
  const count = ({ schema }: BodyForm) => ((schema.required as string[] | undefined) ?? []).length;
  const most = Math.max(...forms.map(count));
  return most > 0 ? forms.filter((form) => count(form) === most) : [];
}
