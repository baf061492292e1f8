/**
 * Headers from several sources merged by name in any case, as HTTP reads them (`Headers`
 * semantics): a later source replaces a header of an earlier one however either spells it,
 * so that `authorization` given beside the SDK's `Authorization` is not sent twice. `null`
 * removes a header and an array appends each value, as openapi-fetch does for the path API.
 * A name or value HTTP cannot carry (a line break, say) is refused with an OcsError, before
 * anything is sent.
 */
import { OcsError } from './errors.ts';

type Source = Record<string, unknown> | Headers | undefined;

export function mergeHeaders(...sources: Source[]): Headers {
  const merged = new Headers();
  try {
    for (const source of sources) {
      if (!source) continue;
      for (const [name, value] of source instanceof Headers ? source : Object.entries(source)) {
        if (value === null) merged.delete(name);
        else if (Array.isArray(value)) for (const item of value) merged.append(name, item);
        else if (value !== undefined) merged.set(name, value as string);
      }
    }
  } catch (error) {
    // Headers throws a TypeError naming the header.
    throw new OcsError(`Invalid header: ${(error as Error).message}`, { cause: error });
  }
  return merged;
}
