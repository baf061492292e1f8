/**
 * What the fuzzer sends: a case is one request to one operation, of one class, with its
 * path, query, headers and body. Real resources are named by `Ref` (a resource kind and an
 * index into the pools the fixture phase filled), resolved when the request is sent, so
 * that a case stays the same for a seed whatever IDs the store gave.
 */
export const fuzzClasses = [
  'valid',
  'wrong_type',
  'nul',
  'lone_surrogate',
  'huge_number',
  'negative_number',
  'long_string',
  'unknown_field',
  'bad_id',
  'bad_cursor',
  'bad_header',
  'deep_nesting',
  'bad_format',
  'many_items',
] as const;

export type FuzzClass = (typeof fuzzClasses)[number];

export type ResourceKind =
  'campaign' | 'lead' | 'webhook' | 'ai_field' | 'deal' | 'pipeline' | 'stage' | 'member' | 'account' | 'step';

/**
 * A real resource: the `index`-th (modulo) of its pool, of the other organization if
 * `foreign`; `variant` spells its ID otherwise (upper case, padded with a space, behind a
 * `urn:uuid:` prefix).
 */
export class Ref {
  constructor(
    readonly kind: ResourceKind,
    readonly index: number,
    readonly foreign = false,
    readonly variant: 'upper' | 'padded' | 'urn' | null = null,
  ) {}
}

/** A real resource's ID with `text` put in at `at` (a NUL, a lone surrogate). */
export class Spliced {
  constructor(
    readonly into: Ref,
    readonly at: number,
    readonly text: string,
  ) {}
}

/** A JSON number written as given (`1e400`, a 30-digit integer), which JavaScript cannot hold. */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface FuzzCase {
  operationId: string;
  method: string;
  /** The document's path template, without `/v1`. */
  template: string;
  class: FuzzClass;
  /** What the mutation did, for the report (`body.name: NUL inserted`). */
  note: string;
  path: Record<string, unknown>;
  query: Array<[string, unknown]>;
  headers: Record<string, string | null>;
  /** The JSON body (`undefined`: none), or the raw text to send instead. */
  body?: unknown;
  rawBody?: string;
  /** Why any answer but a 4xx is wrong (a body number past a 64-bit float), when one is. */
  mustRefuse?: string;
}

/** JSON text of a body that may hold `RawJson` numbers (lone surrogates come out escaped). */
export function stringifyBody(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value))
    return `[${value.map((item) => stringifyBody(item === undefined ? null : item)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stringifyBody(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Percent-encodes any string for a URL, lone surrogates included (as the bytes a careless
 * encoder would write for them, which are not UTF-8), where `encodeURIComponent` throws.
 */
export function encodeLoose(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(value[i] as string);
    }
  }
  return out;
}
