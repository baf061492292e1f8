/**
 * Reads the connect form's body: `application/x-www-form-urlencoded` (what a browser sends
 * for the page's form), at most 8 KB (the form's fields fit in well under 1 KB), so that a
 * page anyone holding a link can reach never reads much. An empty body is an empty form
 * (a reconnect's form has no field), whatever its `Content-Type`.
 */
import { ApiError } from '../http/api-error.ts';
import { readBodyBytes } from '../http/body.ts';

export const maxFormBytes = 8 * 1024;

export type FormBody = { form: URLSearchParams } | { refused: 'too_large' | 'media_type' | 'coded' | 'cut_off' };

export async function readFormBody(request: Request): Promise<FormBody> {
  // A browser never codes a form's body; read as it came, a gzipped form was an empty one.
  const coding = request.headers.get('content-encoding');
  if (coding !== null && coding.trim().toLowerCase() !== 'identity') return { refused: 'coded' };
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, maxFormBytes);
  } catch (error) {
    if (error instanceof ApiError) return { refused: error.status === 413 ? 'too_large' : 'cut_off' };
    throw error;
  }
  // Invalid UTF-8 becomes U+FFFD, which the form's check refuses where it lands.
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return { form: new URLSearchParams() };
  if (!isFormMediaType(request.headers.get('content-type'))) return { refused: 'media_type' };
  return { form: new URLSearchParams(text) };
}

/** `application/x-www-form-urlencoded`, any case, with parameters; a `charset`, when given, UTF-8. */
export function isFormMediaType(value: string | null): boolean {
  if (value === null) return false;
  const [essence = '', ...parameters] = value.split(';');
  if (essence.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return false;
  return parameters.every((parameter) => {
    const [name = '', ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') return true;
    const charset = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    return charset === 'utf-8' || charset === 'utf8';
  });
}
