/**
 * Headers from several sources merged by name in any case, as HTTP reads them (`Headers`
 * semantics): a later source replaces a header of an earlier one however either spells it,
 * so that `authorization` given beside the SDK's `Authorization` is not sent twice. `null`
 * removes a header and an array appends each value, as openapi-fetch does for the path API.
 * A name or value HTTP cannot carry (a line break, say) is refused with an OcsError, before
 * anything is sent.
 */
import { OcsError } from './errors.ts';

/**
 * Throws when `value` holds what a header value cannot (RFC 9110: tab, space, visible ASCII
 * and obs-text only). Headers refuses only NUL, CR and LF, and a code unit above 0xFF; undici
 * refuses the other control characters when it sends, as a `fetch failed` that the transport
 * would take for a lost connection and retry.
 */
export function checkHeader(name: string, value: string): string {
  if (/[^\t -~\x80-\xff]/.test(value)) throw new OcsError(`Invalid header: ${name}`);
  return value;
}

type Source = Record<string, unknown> | Headers | undefined;

export function mergeHeaders(...sources: Source[]): Headers {
  const merged = new Headers();
  try {
    for (const source of sources) {
      if (!source) continue;
      for (const [name, value] of source instanceof Headers ? source : Object.entries(source)) {
        if (value === null) merged.delete(name);
        else if (Array.isArray(value)) for (const item of value) merged.append(name, checkHeader(name, `${item}`));
        else if (value != null) merged.set(name, checkHeader(name, `${value}`));
      }
    }
  } catch (error) {
    // Headers throws a TypeError naming the header; checkHeader, the OcsError itself.
    throw error instanceof OcsError
      ? error
      : new OcsError(`Invalid header: ${(error as Error).message}`, { cause: error });
  }
  return merged;
}
