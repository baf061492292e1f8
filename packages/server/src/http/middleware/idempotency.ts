/**
 * Section 4: a request with an `Idempotency-Key` replays the answer stored for the key, is
 * refused (409) when the key was used for another request or is still running, or runs and
 * has its answer stored.
 *
 * The handler runs in one transaction with the storing of its answer (decision 0020): it
 * gets that transaction's store (`context.store`), and its writes commit only together with
 * the answer. A crash between the two is then impossible; a crash anywhere leaves neither,
 * and the retry that takes the key over after its lease creates once. A client error rolls
 * the handler's writes back and is stored like a success (it would answer the same again);
 * a server error rolls them back too and frees the key, so a retry runs again: nothing of
 * the failed attempt committed, so running again cannot create twice.
 */
import { ApiError } from '../api-error.ts';
import { ClaimTakenOver, inProgress, type IdempotencyKeys } from '../idempotency.ts';
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
    const { claim } = outcome;
    try {
      await keys.runAndStore(claim, async (tx) => {
        context.store = tx;
        await next();
        const answer = context.answer;
        if (!answer) throw new Error(`${operation.operationId}: the handler gave no answer`);
        return answer;
      });
    } catch (error) {
      // The request is refused as any other repeat while the key's holder runs: the holder
      // now is the request that took the key over, and its answer is the one to replay.
      if (error instanceof ClaimTakenOver) throw inProgress(key, 1);
      if (error instanceof ApiError && error.status < 500) {
        const failure = errorBody(error, context.requestId);
        await keys.storeRefusal(claim, { status: failure.status, body: failure.body });
      } else {
        await keys.release(claim).catch(() => undefined);
      }
      throw error;
    } finally {
      // The transaction has ended: nothing after this step may use its store.
      context.store = undefined;
    }
    // Committed: the hints the handler gave may be acted on now (rolled back, they were dropped).
    for (const hint of context.afterCommit?.splice(0) ?? []) hint();
    const answer = context.answer as NonNullable<RequestContext['answer']>;
    answer.headers = { [idempotencyHeader]: key, ...answer.headers };
  }
}
