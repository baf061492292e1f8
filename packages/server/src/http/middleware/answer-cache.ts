/**
 * Keeps the JSON text of answers to a few read operations until the store's data next
 * changes, for a store that tells when it changes (the memory store's `dataVersion`, which
 * the mock runs on). A page of 20 leads is about 12.5 KB of JSON, and building it (copying
 * the rows, the views, `JSON.stringify`) was about a fifth of the mock's time per request
 * under load; a test suite or a page polling a list asks the same page again and again.
 *
 * Only the handler is skipped: the step runs after authentication, the rate limit, the
 * scope and validation, so a cached answer is counted, refused and validated as any other,
 * and gets its own request ID and `RateLimit-*` headers (added by the steps around it).
 *
 * An operation may be listed only when its answer is made of the store's data, the caller's
 * organization and the request's path and query string, nothing else: not the clock (a
 * "last 7 days" filter), not the caller's key or scopes, not a header. A write anywhere in
 * the store drops every kept answer, so nothing needs to know which tables an answer reads.
 * It drops them as it happens, not at the next read: a kept page is a copy of personal data,
 * and an erasure must leave none behind (decision 0003).
 */
import type { OperationId } from '../../openapi/types.ts';
import type { Answer, Middleware } from './context.ts';

/** `listLeads`: the leads page, from the `leads` and `enrolments` rows of the organization. */
const cachedOperations: ReadonlySet<OperationId> = new Set<OperationId>(['listLeads']);

/** Answers kept per data version: distinct pages a client asks for between two writes. */
const maxAnswers = 64;

/** A store that tells when its data changes: the memory store's `dataVersion` and `onDataChange`. */
export interface DataChanges {
  /** Moves on with every change and never goes back. */
  version(): number;
  /** Runs `listener` inside every write, as it happens. */
  onChange(listener: () => void): void;
}

export function answerCache(changes: DataChanges): Middleware {
  const answers = new Map<string, Answer>();
  changes.onChange(() => {
    if (answers.size > 0) answers.clear();
  });
  const dataVersion = () => changes.version();
  return (context, next) => {
    const { operation, url } = context;
    // Inside the idempotency step's transaction the handler reads what it has not committed.
    if (!cachedOperations.has(operation.operationId) || context.store || !context.auth) return next();
    const seen = dataVersion();
    const key = `${operation.operationId} ${context.auth.organization.id} ${url.pathname}${url.search}`;
    const kept = answers.get(key);
    if (kept) {
      // A new object: the steps around this one replace the answer's headers.
      context.answer = { status: kept.status, body: kept.body, headers: { ...kept.headers } };
      return Promise.resolve();
    }
    return next().then(() => {
      const { answer } = context;
      // Kept only if nothing changed while the handler read: it awaits between its reads, and
      // a write meanwhile could give a page of no single version of the data (the map may be
      // the next version's already, if another request started after the write).
      if (answer?.status !== 200 || dataVersion() !== seen) return;
      if (answers.size >= maxAnswers) answers.clear();
      answers.set(key, { status: answer.status, body: answer.body, headers: { ...answer.headers } });
    });
  };
}
