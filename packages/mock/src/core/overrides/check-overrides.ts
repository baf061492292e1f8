/**
 * What `mock.use()` takes: MSW request handlers. Anything else (`{}`, a resolver function, a
 * list) used to be accepted and then answered every request with a 500 carrying a stack
 * trace, from the test after the one that made the mistake.
 */
import type { RequestHandler } from 'msw';
import { shown } from '../option-values.ts';

export function checkOverrides(handlers: readonly unknown[]): asserts handlers is RequestHandler[] {
  // Duck-typed: a handler from another copy of MSW (its CommonJS build) is one all the same.
  const wrong = handlers.findIndex((handler) => typeof (handler as Partial<RequestHandler> | null)?.run !== 'function');
  if (wrong < 0) return;
  throw new TypeError(
    `@ocs/mock: use() takes MSW request handlers (http.get(...), mock.http.getCampaign(...)); argument ${wrong + 1} is ${shown(handlers[wrong])}.`,
  );
}
