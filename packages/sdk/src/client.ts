/**
 * `createClient`: the API key, the base URL, and a transport that retries, keeps one
 * deadline, honours an AbortSignal and records rate limits (src/transport.ts). The path
 * API (`client.GET(...)`) is openapi-fetch's interface over the document's `paths`
 * (src/paths.ts), sending through that transport; the named operations
 * (`getCampaign(client, ...)`) build their request from their row of the operation table
 * and send through the same transport directly, which keeps a named call close to a plain
 * `fetch` (bench/). Every request carries `X-OCS-Client` (src/runtime.ts).
 */
import type { Client, Middleware } from 'openapi-fetch';
import { authorization, baseUrl, checkLimits, env } from './config.ts';
import { createDeprecationLog, type Logger } from './deprecation.ts';
import { OcsError } from './errors.ts';
import { mergeHeaders } from './headers.ts';
import type { paths } from './generated/openapi.ts';
import { createPathClient } from './paths.ts';
import { parseRateLimit, type RateLimit } from './rate-limit.ts';
import { clientHeaders } from './runtime.ts';
import { createTransport, type Send } from './transport.ts';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** API key (`ocs_...`). Default: `process.env.OCS_API_KEY` where `process` exists. */
  apiKey?: string | undefined;
  /**
   * Base URL, with or without the trailing `/v1`. Default: `process.env.OCS_BASE_URL`,
   * else `http://127.0.0.1:4011`, where `npx ocs-mock` (@ocs/mock's standalone mock) listens.
   * The repository's reference server listens at `http://127.0.0.1:4010`: pass it explicitly.
   */
  baseUrl?: string | undefined;
  /**
   * Deadline of a call in ms (above 0; `Infinity` for none), across every attempt and wait.
   * Default 60,000.
   */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (a whole number), for requests safe to retry. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Longest `Retry-After` (or `RateLimit-Reset`) the client waits for, in ms (0 or more;
   * `Infinity`: only the deadline caps it). A longer one fails at once with the error, whose
   * `retryAfter` says how long to wait; a shorter one is waited in full, however long it is.
   * Default 60,000.
   */
  maxRetryAfterMs?: number | undefined;
  /**
   * Headers sent with every request, after the SDK's own (`X-OCS-Client`, `User-Agent`),
   * which they may replace, in any case; a call's `headers` replace these. `Authorization`
   * always comes from `apiKey`.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Debug logging: one line per attempt, answer (status, time, request ID) and retry (why,
   * and after how long) to `logger.debug`. Headers are never printed, so neither is the API
   * key. Default: on when the environment has `OCS_LOG=debug`.
   */
  debug?: boolean | undefined;
  /**
   * Receives the one-time warning for each deprecated operation called (`warn`) and the
   * debug lines (`debug`, else `warn`). Default: `console`.
   */
  logger?: Logger | undefined;
  /**
   * The fetch to use. Default: the global `fetch`, looked up at each request. It must accept
   * what the global `fetch` accepts, as openapi-fetch requires of its `fetch`: a named
   * operation calls it with a URL string and an init (`method`, `headers`, `body`, `signal`);
   * the path API (`client.GET(...)`...), and a named operation once `client.use()` has
   * registered a middleware, call it with a `Request` and `{ signal }`. A fetch that takes
   * only a URL string (node-fetch v2) fails on those: use the global `fetch` (undici's, on
   * Node 20) or one that takes a `Request`.
   */
  fetch?: typeof fetch | undefined;
  /**
   * Opt-in validation of named operations' response bodies: schemas with `parse` by
   * operationId, such as `successResponseSchemas` of `@ocs/sdk/zod`. What `parse` returns
   * becomes the result; what it throws, the call throws.
   */
  validate?: ResponseValidator | undefined;
}

/** Schemas (anything with `parse`) by operationId, to check the bodies of named operations. */
export type ResponseValidator = { readonly [operationId: string]: { parse(body: unknown): unknown } | undefined };

/** What the named operations need from a client. */
export interface ClientInternals {
  readonly send: Send;
  /** Base URL ending in `/v1`. */
  readonly baseUrl: string;
  /** `Authorization: Bearer <key>`, `X-OCS-Client` and the client's own headers (copy to change). */
  readonly headers: Headers;
  /** The same as a record (names in lower case): a call without headers of its own starts from a copy. */
  readonly plain: Readonly<Record<string, string>>;
  /** `Authorization: Bearer <key>`, which no call's headers replace. */
  readonly fixed: Readonly<Record<string, string>>;
  /** The middlewares registered with `client.use()`, which the named operations run too. */
  readonly hooks: readonly Middleware[];
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly validate: ResponseValidator | undefined;
}

/** The client: openapi-fetch's typed path API plus the SDK's state. */
export interface OcsClient extends Client<paths, 'application/json'> {
  /** Rate-limit state of the last answer this client received. */
  readonly rateLimit: RateLimit | undefined;
  /** @internal What the named operations use. */
  readonly '~ocs': ClientInternals;
}

/**
 * Creates a client. Throws at once, with what to do, on a missing or malformed key or
 * base URL, or an option it does not know. The options are the object's own properties:
 * inherited ones (a polluted `Object.prototype`'s) are not read, and symbol keys are ignored.
 *
 * @example
 * import { createClient, getCampaign } from '@ocs/sdk';
 *
 * const client = createClient({ apiKey: process.env.OCS_API_KEY, baseUrl: 'https://api.example.com' });
 * const { campaign } = await getCampaign(client, { campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14' });
 * const { data, error } = await client.GET('/campaigns/{campaign_id}', {
 *   params: { path: { campaign_id: campaign.id } },
 * });
 */
export function createClient(options?: ClientOptions): OcsClient {
  // The options are the object's own properties, read from a copy with no prototype: an
  // inherited one is none, so that a polluted Object.prototype (`baseUrl`, `fetch`, as a
  // gadget's `obj.__proto__.x = ...` sets them) neither takes the key elsewhere nor fails
  // every client as an unknown option.
  const {
    apiKey,
    baseUrl: url,
    timeoutMs = 60_000,
    maxRetries = 2,
    maxRetryAfterMs = 60_000,
    headers: own,
    debug,
    logger = console,
    fetch,
    validate,
    ...unknown
  } = { __proto__: null, ...options } as ClientOptions;
  // TypeScript refuses an unknown option in an object literal; JavaScript does not. Its own
  // string keys, on a copy with no prototype again (the rest has Object.prototype's); a
  // symbol key cannot be a misspelt option, and may be a framework's mark: it is ignored.
  // The message names the type rather than listing the options: the list took 23 B of the
  // quickstart's budget, which the key made without `crypto.randomUUID` needed (operation.ts).
  for (const name in { __proto__: null, ...unknown }) {
    throw new OcsError(`Unknown option "${name}": not one of ClientOptions.`);
  }
  checkLimits(timeoutMs, maxRetries, maxRetryAfterMs);
  // Else the first request would fail with a TypeError that names no option.
  if (fetch != null && typeof fetch != 'function') throw new OcsError('Invalid fetch: expected a function.');
  // By name in any case: `authorization` in options.headers must not be sent beside the key.
  const fixed = { Authorization: authorization(apiKey) };
  const headers = mergeHeaders(clientHeaders(), own, fixed);
  const base = baseUrl(url);
  const deprecated = createDeprecationLog(logger);
  let last: Headers | undefined;
  const send = createTransport(
    maxRetryAfterMs,
    fetch,
    (response, route) => deprecated(route, (last = response.headers)),
    (debug ?? env('OCS_LOG', true) === 'debug')
      ? (line) => (logger.debug ? logger.debug(`[@ocs/sdk] ${line}`) : logger.warn(`[@ocs/sdk] ${line}`))
      : undefined,
  );
  const internals: ClientInternals = {
    send,
    baseUrl: base,
    headers,
    plain: Object.fromEntries(headers),
    fixed,
    // The middlewares of `client.use()`: the path API runs them, and so do the named
    // operations once there is one (src/operation.ts).
    hooks: [],
    // The path API's deadline covers the attempts, the waits and the reading of the answer.
    timeoutMs,
    maxRetries,
    validate,
  };
  return Object.defineProperties(createPathClient<paths>(internals), {
    // Parsed when read: most callers never look at it.
    rateLimit: { get: () => last && parseRateLimit(last) },
    '~ocs': { value: internals },
  }) as OcsClient;
}
