import type { RawBody } from './body.ts';
import { signatureHeader } from './signature.ts';
import type { ProspectResponseEvent, SignedRequestInit } from './types.ts';

export async function createSignedRequestWith(
  sign: (payload: RawBody, secret: string) => Promise<string>,
  url: string | URL,
  body: ProspectResponseEvent | RawBody,
  secret: string,
  init?: SignedRequestInit,
): Promise<Request> {
  const raw =
    typeof body === 'string' || ArrayBuffer.isView(body) || body instanceof ArrayBuffer
      ? (body as RawBody)
      : JSON.stringify(body);
  const headers = new Headers(init?.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  headers.set(signatureHeader, await sign(raw, secret));
  return new Request(url, { method: 'POST', headers, body: raw as BodyInit });
}
