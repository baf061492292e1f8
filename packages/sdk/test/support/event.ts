/** A `prospect_response` event from the OpenAPI document's own examples, for the webhook tests. */
import { examplesOf, type JsonObject, loadBundledDocument } from '@ocs/openapi/support';
import type { ProspectResponseEvent } from '../../src/webhooks/types.ts';

const document = loadBundledDocument();
const post = ((document.webhooks as JsonObject).prospect_response as JsonObject).post as JsonObject;
const media = ((post.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject;

/** Every example event of the document. */
export const exampleEvents = examplesOf(document, media).map(({ value }) => value as ProspectResponseEvent);

/** One example event (a copy: tests may change it). */
export function exampleEvent(): ProspectResponseEvent {
  return structuredClone(exampleEvents[0] as ProspectResponseEvent);
}
