/**
 * Text escaped for an HTML element's content or a quoted attribute value: the one escape of
 * the pages the server writes itself (the connect links' pages, `/docs` and its page when the
 * renderer is missing).
 */
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}
