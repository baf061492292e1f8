/**
 * The raw `Response` of a named operation, as Stainless SDKs give it with `.withResponse()`
 * and `.asResponse()`: `withResponse` resolves to the result and the Response it was read
 * from; `asResponse` to the Response of a 2xx answer with its body unread, for streaming
 * or reading it yourself. An error answer throws the SDK's error either way. Separate
 * exports, so that an application that does not use them does not bundle them.
 */
import type { OcsClient } from './client.ts';
import { RAW, type Operation } from './operation.ts';
import { responseOf } from './result.ts';
import type { OperationArgs, OperationId, OperationResult } from './types.ts';

type Loose = (client: OcsClient, params?: unknown, options?: object) => Promise<unknown>;

/**
 * Calls `operation` and resolves to its result and the raw Response (headers, status, URL;
 * the body has been read into `data`).
 *
 * @example
 * const { data, response } = await withResponse(getCampaign, client, { campaign_id });
 * console.log(data.campaign.name, response.headers.get('x-request-id'));
 */
export async function withResponse<Id extends OperationId>(
  operation: Operation<Id, string | undefined>,
  client: OcsClient,
  ...args: OperationArgs<Id>
): Promise<{ data: OperationResult<Id>; response: Response }> {
  const data = (await (operation as unknown as Loose)(client, ...args)) as OperationResult<Id>;
  return { data, response: responseOf(data) };
}

/**
 * Calls `operation` and resolves to the raw Response of its 2xx answer, body unread. The
 * call's deadline and signal cover the attempts up to the answer's headers, not the body.
 *
 * @example
 * const response = await asResponse(listLeads, client, { campaign_id });
 * await pipeline(Readable.fromWeb(response.body!), createWriteStream('leads.json'));
 */
export function asResponse<Id extends OperationId>(
  operation: Operation<Id, string | undefined>,
  client: OcsClient,
  ...[params, options]: OperationArgs<Id>
): Promise<Response> {
  return (operation as unknown as Loose)(client, params, { ...options, [RAW]: true }) as Promise<Response>;
}
