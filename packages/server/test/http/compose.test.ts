/** The pipeline's composition: order in and out, a step that answers without `next`, and `next` called twice. */
import { describe, expect, it } from 'vitest';
import { compose } from '../../src/http/middleware/compose.ts';
import type { Middleware, RequestContext } from '../../src/http/middleware/context.ts';

const context = () => ({ answer: undefined }) as unknown as RequestContext;

describe('compose', () => {
  it('runs each step until next, the rest, then the remainder of each, outermost last', async () => {
    const trace: string[] = [];
    const step =
      (name: string): Middleware =>
      async (_context, next) => {
        trace.push(`${name} in`);
        await next();
        trace.push(`${name} out`);
      };
    await compose([step('a'), step('b'), step('c')])(context());
    expect(trace).toEqual(['a in', 'b in', 'c in', 'c out', 'b out', 'a out']);
  });

  it('stops where a step answers without calling next', async () => {
    const reached: string[] = [];
    const answering: Middleware = async (ctx) => {
      ctx.answer = { status: 200, body: '{}', headers: {} };
    };
    const never: Middleware = async () => {
      reached.push('never');
    };
    const ctx = context();
    await compose([answering, never])(ctx);
    expect(reached).toEqual([]);
    expect(ctx.answer?.status).toBe(200);
  });

  it('refuses a step that calls next twice, so the handler never runs twice', async () => {
    let handled = 0;
    const twice: Middleware = async (_context, next) => {
      await next();
      await next();
    };
    const handler: Middleware = async () => {
      handled += 1;
    };
    await expect(compose([twice, handler])(context())).rejects.toThrow('called next() twice');
    expect(handled).toBe(1);
  });

  it('passes a throw from an inner step out to the steps around it', async () => {
    const seen: unknown[] = [];
    const catcher: Middleware = async (_context, next) => {
      try {
        await next();
      } catch (error) {
        seen.push(error);
      }
    };
    const thrower: Middleware = async () => {
      throw new Error('inner');
    };
    await compose([catcher, thrower])(context());
    expect(seen).toEqual([new Error('inner')]);
  });
});
