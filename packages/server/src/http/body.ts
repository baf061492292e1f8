/**
 * Reads a JSON request body without ever holding more than the 1 MB limit: a declared
 * `Content-Length` over the limit is refused before reading, and a streamed body is counted
 * as it arrives and abandoned as soon as it passes the limit.
 */
import { ApiError, validationError } from './api-error.ts';

export const maxBodyBytes = 1024 * 1024;

/** UTF-8, a leading byte order mark dropped (as `Response.text()`); invalid bytes throw. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** The same, replacing invalid bytes: to tell an empty body or a wrong media type first. */
const lenientUtf8 = new TextDecoder();

export async function readBodyBytes(request: Request, limit = maxBodyBytes): Promise<Uint8Array> {
  try {
    return await readWithin(request, limit);
  } catch (error) {
    // The client went away before sending the body it announced: an incomplete HTTP message,
    // answered (to no one) and logged as such rather than as a failure of the server.
    if (!(error instanceof ApiError) && request.signal.aborted) throw cutOff();
    throw error;
  }
}

async function readWithin(request: Request, limit: number): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  const declared = Number(length);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (length !== null && /^\d+$/.test(length)) {
    // A declared length within the limit: Node's HTTP parser delivers exactly that many
    // bytes, so the body is read whole. On the Node server that is the adapter's direct read
    // of the socket's chunks; `request.body` would first build a web Request, an AbortSignal
    // and a web stream around them (about a tenth of the server's time on POST /v1/leads).
    // Only an in-process Request can carry a length its body does not have: it is refused
    // after reading, once the caller's own bytes are in hand.
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return new Uint8Array(bytes);
  }
  if (!request.body) return new Uint8Array(0);
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
  return bytes;
}

/**
 * Parses the body as JSON; an empty body is `undefined`, whatever its `Content-Type` (none is
 * needed). A body with content must be declared JSON, sent without a content coding, or it
 * answers `415 UNSUPPORTED_MEDIA_TYPE` (docs/decisions/0005-bad-input.md): the size limit
 * comes first, so that nothing past 1 MB is read to find out. JSON is UTF-8 (RFC 8259): a
 * body that is not answers `400`, rather than being stored with its bytes replaced.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const bytes = await readBodyBytes(request);
  let text: string;
  let validUtf8 = true;
  try {
    text = utf8.decode(bytes);
  } catch {
    validUtf8 = false;
    text = lenientUtf8.decode(bytes);
  }
  if (text.trim() === '') return undefined;
  const coding = request.headers.get('content-encoding');
  if (coding !== null && coding.trim().toLowerCase() !== 'identity') {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Request body must be sent uncompressed; Content-Encoding ${JSON.stringify(coding.slice(0, 100))} is not supported.`,
    );
  }
  const contentType = request.headers.get('content-type');
  if (!isJsonMediaType(contentType)) {
    const given =
      contentType === null ? 'none was given' : `${JSON.stringify(contentType.slice(0, 100))} is not supported`;
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Request body must be sent as application/json (UTF-8); Content-Type ${given}.`,
    );
  }
  if (!validUtf8) {
    throw validationError(
      [{ field: 'body', message: 'is not valid UTF-8', type: 'invalid_json' }],
      'Request body is not valid UTF-8.',
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError(
      [{ field: 'body', message: 'is not valid JSON', type: 'invalid_json' }],
      'Request body is not valid JSON.',
    );
  }
}

/**
 * `application/json` or `application/<anything>+json` (RFC 6839), any case, with parameters;
 * a `charset`, when given, must be UTF-8, the only encoding the body is read in.
 */
export function isJsonMediaType(value: string | null): boolean {
  if (value === null) return false;
  const [essence = '', ...parameters] = value.split(';');
  const type = essence.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(type)) return false;
  for (const parameter of parameters) {
    const [name = '', ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}

function cutOff(): ApiError {
  return validationError(
    [{ field: 'body', message: 'ended before its declared length: the connection closed', type: 'malformed_http' }],
    'Request body ended before its declared length: the client closed the connection.',
  );
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds 1 MB (${limit} bytes).`);
}
