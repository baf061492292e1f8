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
      if (!step) return Promise.resolve();
      // Steps that only pass on return `next()` without an async frame of their own (one
      // promise fewer per step on every request); a synchronous throw still rejects.
      try {
        return step(context, () => dispatch(index + 1));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}
