/**
 * Composes middleware into one function, in the order given: each runs until it calls
 * `next`, then the rest of the list runs, then the remainder of each, outermost last (the
 * onion of Koa and Hono).
 */
import type { Middleware, RequestContext } from './context.ts';

export function compose(middleware: readonly Middleware[]): (context: RequestContext) => Promise<void> {
  return (context) => {
    let reached = -1;
    const dispatch = (index: number): Promise<void> => {
      // A step that calls `next` twice would run the rest of the pipeline (the handler) twice.
      if (index <= reached) return Promise.reject(new Error('a middleware called next() twice'));
      reached = index;
      const step = middleware[index];
      return step ? step(context, () => dispatch(index + 1)) : Promise.resolve();
    };
    return dispatch(0);
  };
}
