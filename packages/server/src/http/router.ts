/**
 * Routing: the documents, `/docs` and the connect links' page (`/connect/{token}`) outside
 * the pipeline, then every operation of the document that has a handler, each handed to the
 * request pipeline; an unrouted path answers the API's 404.
 */
import { Hono } from 'hono';
import { connectPage, connectRoute, type ConnectServices } from '../connect/connect-route.ts';
import { docsPaths, docsResponder, type DocsRouteOptions } from '../docs/docs-route.ts';
import { type OperationInfo, operationTable } from '../openapi/document.ts';
import { servedDocuments } from '../openapi/served.ts';
import type { PartialHandlers } from '../routes/registry.ts';
import type { Logger } from './logger.ts';
import type { AnyHandler } from './middleware/context.ts';
import { outsidePipeline, pipelineFailureAnswer, unroutedAnswer } from './outside-pipeline.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Runs one request of an operation through the pipeline. */
export type HandleOperation = (
  operation: OperationInfo,
  handler: AnyHandler,
  request: Request,
  pathParams: Record<string, string>,
) => Promise<Response>;

export interface RouterOptions {
  logger: Logger;
  rateLimiter: RateLimiter;
  handlers: PartialHandlers;
  docs?: DocsRouteOptions;
  /** What the connect links' page reads and writes: the application's store and clock. */
  connect: ConnectServices;
  handle: HandleOperation;
}

export function createRouter({ logger, rateLimiter, handlers, docs, connect, handle }: RouterOptions): Hono {
  const hono = new Hono({ strict: true });
  for (const [path, document] of Object.entries(servedDocuments)) {
    hono.get(
      path,
      outsidePipeline(
        logger,
        async () => new Response(await document.body(), { headers: { 'Content-Type': document.contentType } }),
      ),
    );
  }
  if (docs) {
    const respond = docsResponder(docs);
    for (const path of docsPaths)
      hono.get(
        path,
        outsidePipeline(logger, (request) => respond(new URL(request.url).pathname)),
      );
  }
  // Every method: the page answers 405 itself to those it does not take, with `Allow`.
  hono.all(connectRoute, outsidePipeline(logger, connectPage(connect)));
  // Routes with fewer parameters first, so `/campaigns/sequence-templates` wins over
  // `/campaigns/{campaign_id}`.
  const ordered = [...operationTable].sort((a, b) => paramCount(a.path) - paramCount(b.path));
  for (const operation of ordered) {
    const handler = handlers[operation.operationId] as unknown as AnyHandler | undefined;
    // An operation without a handler is not routed (404); a test requires every handler.
    if (!handler) continue;
    hono.on(operation.method, `/v1${operation.path.replaceAll(/\{(\w+)\}/g, ':$1')}`, (c) =>
      handle(operation, handler, c.req.raw, c.req.param() as Record<string, string>),
    );
  }
  hono.notFound(outsidePipeline(logger, unroutedAnswer(rateLimiter)));
  hono.onError(pipelineFailureAnswer(logger));
  return hono;
}

function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
