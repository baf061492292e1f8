/**
 * Prism ignores the path of `servers[].url` (it serves `/campaigns`, not `/v1/campaigns`;
 * stoplightio/prism#1591 was declined). So that clients use the same base URL against Prism
 * and the real service, Prism is given a copy of the document whose paths carry `/v1`.
 */
type Document = { paths: Record<string, unknown>; servers?: unknown; [key: string]: unknown };

export const apiPrefix = '/v1';

export function withVersionedPaths(document: Document, origin: string): Document {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) paths[`${apiPrefix}${path}`] = item;
  return { ...document, servers: [{ url: origin }], paths };
}
