/** The end of the pipeline: the operation's handler, given the validated input, the caller and the request's time. */
import type { OperationId } from '../../openapi/types.ts';
import type { HandlerRequest } from '../../routes/registry.ts';
import type { AppServices } from '../../services.ts';
import { authOf, inputOf, type Middleware, type RequestContext } from './context.ts';

export function runHandler(services: AppServices): Middleware {
  return async (context) => {
    const request = {
      ...inputOf(context),
      auth: authOf(context),
      requestId: context.requestId,
      now: context.now,
      origin: context.url.origin,
    } as unknown as HandlerRequest<OperationId>;
    // Inside the idempotency step's transaction, every read and write of the handler goes
    // through it: one on the services' store would commit apart from the stored answer (and
    // on PGlite and memory, which run one transaction at a time, wait for it forever).
    const result = await context.handler(request, context.store ? inTransaction(services, context) : services);
    context.answer = { status: result.status, body: JSON.stringify(result.body), headers: result.headers ?? {} };
  };
}

/** The services inside the idempotency step's transaction: its store, and hints held until it commits. */
function inTransaction(services: AppServices, context: RequestContext): AppServices {
  const { bulkWritten } = services;
  return {
    ...services,
    store: context.store as NonNullable<RequestContext['store']>,
    ...(bulkWritten ? { bulkWritten: () => (context.afterCommit ??= []).push(bulkWritten) } : {}),
  };
}
