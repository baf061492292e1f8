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
    fitting = fitting.filter(({ schema }) => {
      const known = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
      return schema.additionalProperties !== false || fields.every((field) => known.includes(field));
    });
  }
  return fitting.length === 1 ? fitting[0] : undefined;
}
