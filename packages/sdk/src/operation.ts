/**
 * The shared caller of the generated named operations. Each operation is one row of data
 * (`op(...)` in src/generated/operations.ts); `call` routes the flat `params` to path,
 * query and body, sends through the client's transport, throws the API's error, and
 * returns the body as an OcsResult (src/result.ts). It builds the request itself rather
 * than through openapi-fetch, whose own Request (which fetch then copies, with its signal)
 * measured 15 to 40% more per call on loopback (bench/); the path API keeps openapi-fetch.
 * Once the caller registers middlewares with `client.use()`, a named call goes through
 * openapi-fetch too, so that one mechanism of hooks reaches both APIs.
 */
import type { OcsClient } from './client.ts';
import { checkLimits } from './config.ts';
import { startDeadline } from './deadline.ts';
import { OcsError, readAnswer } from './errors.ts';
import { checkHeader, mergeHeaders } from './headers.ts';
import { fillPath } from './paths.ts';
import { toResult } from './result.ts';
import { isRetryable } from './retry.ts';
import type { Call } from './transport.ts';
import type { IdempotentCallOptions, OperationArgs, OperationId, OperationResult } from './types.ts';

/** The request has a JSON body (its fields are the params that are not path or query). */
const BODY = 1;
/** The operation declares `Idempotency-Key`: one is sent (generated when not given). */
const IDEMPOTENT = 2;

/** A named operation: call it with the client, its params, and options. */
export interface Operation<
  Id extends OperationId = OperationId,
  Items extends string | undefined = string | undefined,
> {
  (client: OcsClient, ...args: OperationArgs<Id>): Promise<OperationResult<Id>>;
  readonly operationId: Id;
  /** `METHOD /route/{template}`. */
  readonly route: string;
  /** HTTP method. */
  readonly method: string;
  /** Route template, as in the document (`/campaigns/{campaign_id}`). */
  readonly path: string;
  /** Names of the query parameters. */
  readonly query: readonly string[];
  /** For list operations, the key of the items in the page. */
  readonly items: Items;
}

type Loose = Record<string, unknown>;

/** One row of the operation table. */
export function op<Id extends OperationId, Items extends string | undefined = undefined>(
  operationId: Id,
  route: string,
  // Left out by most rows: no query parameters, no flags (`undefined & BODY` is 0).
  query?: readonly string[] | 0,
  flags?: number,
  items?: Items,
): Operation<Id, Items> {
  const [method, path] = route.split(' ') as [string, string];
  const operation = (client: OcsClient, params?: Loose, options?: IdempotentCallOptions) =>
    call(client, operation as never, flags as number, params, options);
  return Object.assign(operation, { operationId, route, method, path, query: query || [], items }) as never;
}

/**
 * A hidden call option: resolve to the raw Response of a 2xx answer, its body unread
 * (`asResponse()` of src/response.ts).
 */
export const RAW = Symbol('ocs.raw');

type Options = IdempotentCallOptions & { [RAW]?: boolean };
type Request_ = (method: string, path: string, init: object) => Promise<{ response: Response; error?: unknown }>;

async function call(
  client: OcsClient,
  operation: Operation,
  flags: number,
  params?: Loose,
  options?: Options,
): Promise<unknown> {
  // The options' own members only, as the params' below: a polluted Object.prototype's
  // `headers`, `requestId`, `timeoutMs`, `signal`... would otherwise be this call's.
  options = { __proto__: null, ...options } as Options;
  const {
    send,
    baseUrl,
    headers: clientHeaders,
    plain,
    fixed,
    hooks,
    timeoutMs,
    maxRetries,
    validate,
  } = client['~ocs'];
  const { method, path: template, query } = operation;
  const path: Loose = {};
  let search: Record<string, string> | undefined;
  const body: Loose = {};
  // Own members only (a copy with no prototype): a member a polluted Object.prototype has
  // would otherwise be sent as a body field, a query parameter or a path parameter.
  for (const key in { __proto__: null, ...params }) {
    const value = (params as Loose)[key];
    // Query parameters are scalars (the generator refuses others); null and undefined are
    // left out, like openapi-fetch does.
    if (query.includes(key)) {
      if (value != null) (search ??= {})[key] = String(value);
    } else if (template.includes(`{${key}}`)) path[key] = value;
    else body[key] = value;
  }
  // By name in any case, the call's over the client's.
  const given = options.headers ? mergeHeaders(clientHeaders, options.headers) : clientHeaders;
  // The key sent is the one the result reports, given as an option or a header. Only an
  // operation that declares the header counts on it: the service ignores it on the others.
  // A page that is no secure context (plain http on a host other than localhost) has no
  // `randomUUID`, but `getRandomValues`: its key is 128 random bits in four numbers.
  const idempotencyKey =
    flags & IDEMPOTENT
      ? (options.idempotencyKey ??
        given.get('idempotency-key') ??
        crypto.randomUUID?.() ??
        crypto.getRandomValues(new Uint32Array(4)).join('-'))
      : undefined;
  // The SDK's own last, checked as Headers checks them: the key, JSON's type, the options.
  const own: Record<string, string | undefined> = {
    'content-type': flags & BODY ? 'application/json' : undefined,
    'idempotency-key': idempotencyKey,
    'x-request-id': options.requestId,
  };
  // No headers of the call's own: the client's as a record, with no Headers built per call
  // (iterating one sorts it), about a tenth of the SDK's own time per call (sdk-client bench).
  let headers: Record<string, string> | Headers = { ...plain };
  // These three only, as the params above: not what a polluted Object.prototype adds.
  for (const name in { __proto__: null, ...own }) {
    const value = own[name];
    if (value == null) continue;
    // Refused here whether or not the call has headers (headers.ts says why). And a blank
    // value (checked as a NUL, which is refused), which would be sent empty: an empty key is
    // no key, and a retried create could create twice.
    headers[name] = checkHeader(name, value.trim() ? value : '\0');
  }
  if (options.headers) headers = mergeHeaders(given, fixed, own);
  const ms = options.timeoutMs ?? timeoutMs;
  const retries = options.maxRetries ?? maxRetries;
  checkLimits(ms, retries);
  const deadline = startDeadline(ms, options.signal);
  // How many (0: none).
  const hooked = hooks.length;
  const sending: Call = {
    deadline,
    maxRetries: retries,
    retryable: isRetryable(method, idempotencyKey),
    route: operation.route,
    attempts: 0,
    // The body is read within the attempt (a cut-off body is retried), except where the
    // caller reads it: middlewares of `client.use()`, and `asResponse()`.
    read: !hooked && !options[RAW],
  };
  try {
    let response: Response;
    let errorBody: unknown;
    if (hooked) {
      // Through openapi-fetch, so that the middlewares of `client.use()` see a named call
      // as they see one of the path API, once per call, around every attempt.
      ({ response, error: errorBody } = await (client.request as unknown as Request_)(method, template, {
        params: { path, query: search },
        body: flags & BODY ? body : undefined,
        headers,
        parseAs: 'stream',
        deadline,
        fetch: (request: Request) => send(request, {}, sending),
      }));
    } else {
      response = await send(
        `${baseUrl}${fillPath(template, path)}${search ? `?${new URLSearchParams(search)}` : ''}`,
        { method, headers, body: flags & BODY ? JSON.stringify(body) : undefined },
        sending,
      );
    }
    if (options[RAW] && response.ok) return response;
    // Reading the body is within the deadline too: its signal aborts the read (the path
    // client has read an error's body already).
    const text = hooked && !response.ok ? '' : (sending.text ?? (await deadline.race(() => response.text())));
    // Every answer of the API is a JSON object: anything else is an error, whatever its status.
    let data: unknown = readAnswer(response, text, idempotencyKey, sending.attempts, errorBody);
    const schema = validate?.[operation.operationId];
    if (schema) data = schema.parse(data);
    return toResult(data as object, response, idempotencyKey);
  } catch (error) {
    // The caller's signal also aborts reading the body: say so with the SDK's error.
    throw error instanceof OcsError ? error : (deadline.stopped() ?? error);
  } finally {
    deadline.done();
  }
}
