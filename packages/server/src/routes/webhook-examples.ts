/**
 * The example `prospect_response` payloads of `GET /webhooks/examples` (and its deprecated
 * twin), read from that operation's example in the OpenAPI document, so that what the
 * service answers and what the document shows are the same bytes, never two copies that
 * drift apart.
 */
import { openApiDocument } from '../openapi/document.ts';
import type { Schemas } from '../openapi/types.ts';

type ProspectResponseEvent = Schemas['ProspectResponseEvent'];

const examplePath = ['/webhooks/examples', 'get', 'responses', '200', 'content', 'application/json', 'examples'];

let cached: ProspectResponseEvent[] | undefined;

/** A fresh copy of the example payloads, in the document's order. */
export function webhookExamples(): ProspectResponseEvent[] {
  cached ??= readExamples();
  return structuredClone(cached);
}

function readExamples(): ProspectResponseEvent[] {
  let node: unknown = openApiDocument.paths;
  for (const key of examplePath) node = (node as Record<string, unknown> | undefined)?.[key];
  const named = Object.values((node as Record<string, { value?: { examples?: unknown } }> | undefined) ?? {});
  const examples = named[0]?.value?.examples;
  if (!Array.isArray(examples)) {
    throw new Error('The OpenAPI document has no example payloads under GET /webhooks/examples; regenerate it.');
  }
  return examples as ProspectResponseEvent[];
}
