/**
 * Section 4: a request with an `Idempotency-Key` replays the answer stored for the key, is
 * refused (409) when the key was used for another request or is still running, or runs and
 * has its answer stored. A client error is stored like a success; a server error releases
 * the key, so a retry runs again.
 */
import { ApiError } from '../api-error.ts';
import type { IdempotencyKeys } from '../idempotency.ts';
import { errorBody } from '../responses.ts';
import { authOf, inputOf, type Middleware, type RequestContext } from './context.ts';

const idempotencyHeader = 'Idempotency-Key';

export function idempotency(keys: IdempotencyKeys): Middleware {
  return (context, next) => {
    const key = inputOf(context).headers[idempotencyHeader];
    return key === undefined ? next() : runIdempotent(context, next, key);
  };

  async function runIdempotent(context: RequestContext, next: () => Promise<void>, key: string): Promise<void> {
    const input = inputOf(context);
    const { operation } = context;
    const organizationId = authOf(context).organization.id;
    // Keys lease and expire in real time, whatever the sandbox clock says.
    const outcome = await keys.begin(
      organizationId,
      key,
      { method: operation.method, route: operation.path, body: input.body },
      context.wallNow,
    );
    if (outcome.kind === 'replay') {
      context.answer = {
        ...outcome.answer,
        headers: { [idempotencyHeader]: key, 'Idempotent-Replayed': 'true' },
      };
      return;
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        const failure = errorBody(error, context.requestId);
        await keys.complete(organizationId, key, { status: failure.status, body: failure.body });
      } else {
        await keys.release(organizationId, key).catch(() => undefined);
      }
      throw error;
    }
    const answer = context.answer;
    if (!answer) throw new Error(`${operation.operationId}: the handler gave no answer`);
    await keys.complete(organizationId, key, { status: answer.status, body: answer.body });
    answer.headers = { [idempotencyHeader]: key, ...answer.headers };
  }
}
