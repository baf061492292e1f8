/** Reads the JSON body of an operation that takes one: 413 past 1 MB, 415 for another media type, 400 when not JSON. */
import { readJsonBody } from '../body.ts';
import type { Middleware } from './context.ts';

export const jsonBody: Middleware = async (context, next) => {
  if (context.operation.hasBody) context.rawBody = await readJsonBody(context.request);
  await next();
};
