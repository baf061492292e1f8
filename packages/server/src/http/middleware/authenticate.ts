/** Section 5: the caller's API key and organization, or 401/403 (`Authenticator`). */
import type { Authenticator } from '../auth.ts';
import type { Middleware } from './context.ts';

export function authenticate(authenticator: Authenticator): Middleware {
  return (context, next) =>
    // Key expiry is real time, whatever the sandbox clock says.
    authenticator.authenticate(context.request, context.wallNow).then((auth) => {
      context.auth = auth;
      return next();
    });
}
