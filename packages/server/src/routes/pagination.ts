/** The pagination envelope shared by the six list operations (section 4). */
import type { Page } from '../store/types.ts';

export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** The page request with the operation's default limit applied (validation checked the range). */
export function pageRequest(query: PageQuery, defaultLimit: number) {
  return { limit: query.limit ?? defaultLimit, offset: query.offset ?? 0 };
}

export function pageEnvelope<K extends string, T>(
  key: K,
  page: Page<T>,
  request: { limit: number; offset: number },
  message: string,
): {
  success: true;
  message: string;
  count: number;
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
} & Record<K, T[]> {
  return {
    success: true,
    message,
    count: page.items.length,
    total: page.total,
    limit: request.limit,
    offset: request.offset,
    has_more: request.offset + page.items.length < page.total,
    [key]: page.items,
  } as never;
}
