/** Section 5: the operation's scope (from the document) must be among the key's, or 403. */
import { requireScope } from '../auth.ts';
import { authOf, type Middleware } from './context.ts';

export const scope: Middleware = (context, next) => {
  requireScope(authOf(context), context.operation.scope);
  return next();
};
