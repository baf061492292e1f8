/**
 * Iterators over the list operations (the generator marks them with their items key).
 * Pages are fetched one at a time by advancing `offset` by each page's item count until
 * `has_more` is false, and none is kept once iterated: memory stays constant over any
 * number of items. Breaking out of a loop stops the fetching; the signal aborts it.
 */
import type { OcsClient } from './client.ts';
import { createApiError, OcsError } from './errors.ts';
import type { Operation } from './operation.ts';
import type { RateLimit } from './rate-limit.ts';
import { responseOf, resultMeta } from './result.ts';
import type { CallOptions, OperationId, OperationParams, OperationResult } from './types.ts';

/** One page of a list. */
export interface Page<Item> {
  /** The page's items (cut at `maxItems`). */
  readonly items: Item[];
  /** Items matching across all pages. */
  readonly total: number;
  /** Whether a page follows. */
  readonly has_more: boolean;
  /** Items skipped before this page. */
  readonly offset: number;
  /** Items the service put in this page. */
  readonly count: number;
  /** Page size the service applied. */
  readonly limit: number;
  /** Request ID of this page's request. */
  readonly requestId: string | undefined;
  /** Rate-limit state of this page's answer. */
  readonly rateLimit: RateLimit;
}

// What a page copies: the envelope from the body, the request ID and rate limit from the
// response (`resultMeta`), whatever fields the body has.
const pageKeys = ['total', 'has_more', 'offset', 'count', 'limit', 'requestId', 'rateLimit'] as const;

/** Options of {@link paginate}; `timeoutMs` and `maxRetries` apply to each page's request. */
export interface PaginateOptions extends Omit<CallOptions, 'requestId'> {
  /** Items per page (`limit`), within the operation's maximum. Default: the service's. */
  pageSize?: number | undefined;
  /** Stop after this many items (a fraction counts as its whole part). */
  maxItems?: number | undefined;
}

/** Params of a list operation for paging: `limit` is `pageSize`, `page` is never used. */
export type PaginateParams<Id extends OperationId> = Omit<OperationParams<Id>, 'limit' | 'page'>;

/** The items of a list operation's pages. */
export type ItemOf<Id extends OperationId, Items extends string> =
  OperationResult<Id> extends { [K in Items]: (infer Item)[] } ? Item : never;

/** Items with `for await`, pages with `pages()`, or a bounded array with `toArray({ limit })`. */
export interface Paginator<Item> extends AsyncIterable<Item> {
  /** The pages, one request each. */
  pages(): AsyncGenerator<Page<Item>, void, undefined>;
  /**
   * At most `limit` items in an array. `limit` is required so that a long list cannot
   * exhaust memory by accident; use `for await` to go through every item.
   */
  toArray(options: { limit: number }): Promise<Item[]>;
}

type ListOperation<Id extends OperationId, Items extends string> = Operation<Id, Items>;

/**
 * Pages through a list operation: `for await` over the items, `.pages()` over the pages.
 *
 * @example
 * for await (const lead of paginate(client, listLeads, { campaign_id }, { pageSize: 100 })) {
 *   console.log(lead.email);
 * }
 * for await (const page of paginate(client, listLeads).pages()) console.log(page.total, page.requestId);
 * const first500 = await paginate(client, listCampaigns).toArray({ limit: 500 });
 */
export function paginate<Id extends OperationId, Items extends string>(
  client: OcsClient,
  operation: ListOperation<Id, Items>,
  params?: PaginateParams<Id>,
  options?: PaginateOptions,
): Paginator<ItemOf<Id, Items>> {
  type Item = ItemOf<Id, Items>;
  // Own members only (copies with no prototype), as a call reads them: not a polluted
  // Object.prototype's `pageSize`, `maxItems` or `offset`.
  const { pageSize, maxItems = Infinity, ...callOptions } = { __proto__: null, ...options } as PaginateOptions;

  async function* pages(): AsyncGenerator<Page<Item>, void, undefined> {
    const base = { __proto__: null, ...params } as Record<string, unknown>;
    let offset = (base.offset as number | undefined) ?? 0;
    let left = maxItems;
    // At least one item left: a fractional maxItems (2.5) would otherwise request every
    // remaining page for the half item no slice can hold.
    while (left >= 1) {
      const body = (await (operation as unknown as Operation)(
        client,
        { ...base, offset, ...(pageSize && { limit: pageSize }) } as never,
        callOptions,
      )) as unknown as Record<string, unknown> & Omit<Page<Item>, 'items'>;
      let items = body[operation.items] as Item[];
      // A page without its items is not the API's answer (a proxy's, an older server's).
      if (!Array.isArray(items)) throw createApiError(responseOf(body), body);
      // The next page starts after the items this one holds, whatever its `count` says: a
      // count that is negative, not a number or past the items would page back or skip.
      const got = items.length;
      // Cut at maxItems (`slice` copies a whole page too: fewer bytes than a test first).
      items = items.slice(0, left);
      left -= items.length;
      const meta = resultMeta(body) as unknown as Record<string, unknown>;
      const page: Record<string, unknown> = { items };
      for (const key of pageKeys) page[key] = (key in meta ? meta : body)[key];
      yield page as unknown as Page<Item>;
      // An empty page that claims more would loop forever: stop.
      if (!body.has_more || !got) return;
      offset += got;
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
    async toArray(options) {
      const limit = options?.limit;
      // Also false for undefined and NaN.
      if (!(limit >= 0)) {
        throw new OcsError('toArray() needs { limit }; for await sees every item.');
      }
      const all: Item[] = [];
      if (limit) {
        for await (const page of pages()) {
          all.push(...page.items);
          if (all.length >= limit) break;
        }
      }
      return all.slice(0, limit);
    },
  };
}
