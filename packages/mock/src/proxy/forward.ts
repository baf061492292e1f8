/**
 * One request through `ocs-mock proxy`: sent on to the target as it came (method, path,
 * query, headers, body), the target's answer given back as it came (its bytes, whatever
 * they are), and both checked against the contract on the way. Only the API (`/v1`) is
 * under contract: other paths (`/docs`, `/openapi.json`) are passed through unchecked.
 */
import { buffer } from 'node:stream/consumers';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setHeader } from '../core/header-record.ts';
import type { Contract, Violation } from './contract.ts';

export interface Exchange {
  method: string;
  path: string;
  status: number | null;
  /** Whether the path is the API's (`/v1/...`) and so checked; false for what is only passed through. */
  underContract: boolean;
  operationId: string | null;
  violations: Violation[];
}

/**
 * Where requests go: the deployment's origin, and the path its API is under (`''`, or
 * `/api` for a target of `https://example.com/api/v1`), without the `/v1` requests carry.
 */
export interface Target {
  origin: string;
  prefix: string;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and what fetch recomputes. */
const notForwarded = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

export async function forward(
  contract: Contract,
  target: Target,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<Exchange> {
  const incoming = new URL(request.url ?? '/', 'http://proxy.invalid');
  const method = (request.method ?? 'GET').toUpperCase();
  // The target's origin, always, under its prefix: resolving the path against it would let
  // `//other-host/...` (or `/.//other-host/...`) send the request, and its Authorization, to
  // another host.
  const upstream = new URL(target.origin);
  upstream.pathname = `${target.prefix}${incoming.pathname}`;
  upstream.search = incoming.search;
  const raw = await buffer(request);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (notForwarded.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }

  // Only the API is under contract: /openapi.json, /docs and the like pass through unchecked.
  const apiPath = incoming.pathname.startsWith('/v1/') ? incoming.pathname.slice(3) : null;
  const exchange: Exchange = {
    method,
    path: incoming.pathname,
    status: null,
    underContract: apiPath !== null,
    operationId: null,
    violations: [],
  };
  const matched = apiPath === null ? null : contract.match(method, apiPath);
  if (apiPath !== null && !matched) {
    exchange.violations.push({
      operationId: null,
      side: 'request',
      message: `no operation of the document is ${method} ${incoming.pathname}`,
    });
  }
  if (matched) {
    exchange.operationId = matched.operation.operationId;
    const body = parseJson(raw);
    if (body === notJson) {
      exchange.violations.push({
        operationId: exchange.operationId,
        side: 'request',
        message: 'the body is not JSON',
      });
    } else {
      exchange.violations.push(
        ...contract.checkRequest(matched.operation, { params: matched.params, url: incoming, headers, body }),
      );
    }
  }

  let answer: Response;
  try {
    answer = await fetch(upstream, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(raw),
      redirect: 'manual',
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string; message?: string } }).cause;
    const cause = reason?.code ?? reason?.message ?? (error as Error).message;
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        success: false,
        error: 'PROXY_UPSTREAM_UNREACHABLE',
        message: `${target.origin}${target.prefix}: ${cause}`,
      }),
    );
    exchange.violations.push({
      operationId: exchange.operationId,
      side: 'response',
      message: `target unreachable (${cause})`,
    });
    return exchange;
  }
  // Bytes, not text: a binary answer (an image, a gzip file) must reach the client unchanged.
  const bytes = new Uint8Array(await answer.arrayBuffer());
  exchange.status = answer.status;
  if (matched) {
    const body = new TextDecoder().decode(bytes);
    exchange.violations.push(
      ...contract.checkResponse(matched.operation, { status: answer.status, headers: answer.headers, body }),
    );
  }

  // fetch has already decoded the body: its encoding and length are no longer those of the bytes sent on.
  const back: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name === 'content-encoding' || name === 'content-length' || notForwarded.has(name)) return;
    setHeader(back, name, name === 'set-cookie' ? answer.headers.getSetCookie() : value);
  });
  response.writeHead(answer.status, back);
  response.end(bytes);
  return exchange;
}

const notJson = Symbol('not JSON');

/** The request body as the validator takes it: parsed JSON, undefined when empty, `notJson` otherwise. */
function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return notJson;
  }
}
