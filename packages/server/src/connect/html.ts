/**
 * HTML built so that nothing given can become markup: `html` escapes every value put into
 * its template unless the value is itself `Html` made by `html`. The pages show what an
 * integrator or a user typed (an account's label, an organization's name), so escaping is
 * the default rather than something each page must remember.
 */
import { escapeHtml } from '../http/escape-html.ts';

/** Markup made by `html`: put into another template as it is. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template may hold: text (escaped), markup, lists of markup, or nothing (`null`, `false`). */
export type HtmlValue = string | number | Html | readonly Html[] | null | undefined | false;

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += markupOf(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

function markupOf(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((item: Html) => item.text).join('');
  return escapeHtml(String(value));
}
