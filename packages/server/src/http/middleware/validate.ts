/** Path, query, header and body against the operation's schemas in the document: 400 or 404 with every issue. */
import type { RequestValidator } from '../validation.ts';
import type { Middleware } from './context.ts';

export function validate(validator: RequestValidator): Middleware {
  return (context, next) => {
    context.input = validator.validate(context.operation, {
      path: context.pathParams,
      url: context.url,
      headers: context.request.headers,
      body: context.rawBody,
    });
    return next();
  };
}
