/**
 * Reads a JSON request body without ever holding more than the 1 MB limit: a declared
 * `Content-Length` over the limit is refused before reading, and a streamed body is counted
 * as it arrives and abandoned as soon as it passes the limit.
 */
import { ApiError, validationError } from './api-error.ts';

export const maxBodyBytes = 1024 * 1024;

export async function readBodyText(request: Request, limit = maxBodyBytes): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Parses the body as JSON; an empty body is `undefined`. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw validationError(
      [{ field: 'body', message: 'is not valid JSON', type: 'invalid_json' }],
      'Request body is not valid JSON.',
    );
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds 1 MB (${limit} bytes).`);
}
