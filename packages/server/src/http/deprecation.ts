/**
 * Section 9: every answer of a deprecated operation carries `Deprecation: true` and a `Link`
 * to its successor with `rel="successor-version"`. The successor comes from the operation's
 * `x-successor` in the document; its path parameters are filled from the request where known.
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
    return typeof value === 'string' ? encodeURIComponent(value) : placeholder;
  });
  return { Deprecation: 'true', Link: `</v1${successor}>; rel="successor-version"` };
}
