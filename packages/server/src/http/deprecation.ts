/**
 * Section 9: every answer of a deprecated operation carries `Deprecation: true` and a `Link`
 * to its successor with `rel="successor-version"`. The successor comes from the operation's
 * `x-successor` in the document; its path parameters are filled from the request where known.
 * Callers pass validated values only (a path ID that is a UUID, a body that passed its
 * schema): anything else leaves the placeholder, so a header never carries what a caller
 * sent unchecked (a 100,000-character ID, an unpaired surrogate).
 */
import type { OperationInfo } from '../openapi/document.ts';

export function deprecationHeaders(
  operation: OperationInfo,
  pathParams: Record<string, string>,
  bodyFields: Record<string, unknown>,
): Record<string, string> {
  if (!operation.successorPath) return { Deprecation: 'true' };
  const successor = operation.successorPath.replaceAll(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = pathParams[name] ?? bodyFields[name];
    // Validated values hold no unpaired surrogate (the shared validation refuses them), so
    // encodeURIComponent cannot throw here.
    return typeof value === 'string' ? encodeURIComponent(value) : placeholder;
  });
  return { Deprecation: 'true', Link: `</v1${successor}>; rel="successor-version"` };
}
