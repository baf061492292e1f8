/** Reads the JSON body of an operation that takes one: 413 past 1 MB, 415 for another media type, 400 when not JSON. */
import { readJsonBody } from '../body.ts';
import type { Middleware } from './context.ts';

export const jsonBody: Middleware = (context, next) => {
  if (!context.operation.hasBody) return next();
  return readJsonBody(context.request).then((body) => {
    context.rawBody = body;
    return next();
  });
};
