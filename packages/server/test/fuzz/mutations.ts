/**
 * The attacks: each class takes a valid request and changes one place of it (a path or
 * query parameter, a header, or any value of the body, the body itself included) with a
 * value fast-check draws for that class. A class with nothing to change in a request (no ID
 * to spoil, no body field) adds what it would have put in as a query parameter.
 */
import fc from 'fast-check';
import type { ValidParts } from './generator.ts';
import { resourceOfName } from './generator.ts';
import { type FuzzClass, RawJson, Ref, type ResourceKind, Spliced } from './model.ts';
import type { FuzzOperation } from './operations.ts';

type Key = Array<string | number>;
interface Slot {
  where: 'path' | 'query' | 'header' | 'body';
  key: Key;
  value: unknown;
}

export interface Mutated extends ValidParts {
  note: string;
  rawBody?: string;
  mustRefuse?: string;
}

/** Times RFC 3339 allows and the stores cannot hold, or `Date` cannot read (storable-time.ts). */
const unstorableTimes = [
  '0000-01-01T00:00:00Z',
  '0000-01-01',
  '0001-01-01T00:30:00+01:00',
  '9999-12-31T23:59:59-01:00',
  '+010000-01-01T00:00:00Z',
  '2027-12-31T23:59:60Z',
  '2026-06-30T23:59:60+00:00',
  '2026-01-01T00:00:00+01',
  '2026-02-30T00:00:00Z',
  '0000-12-31T23:00:00-01:00',
];

/** A date or a date-time, as the generator writes them for `format: date` and `date-time`. */
const timeLike = /^\d{4}-\d\d-\d\d(?:T|$)/;

export const paginationParams = new Set(['offset', 'page', 'limit', 'before', 'since']);

/** Operations a class applies to (bad_cursor needs a paging parameter, bad_id an ID). */
export function appliesTo(cls: FuzzClass, op: FuzzOperation): boolean {
  if (cls === 'bad_cursor') return op.parameters.some((p) => p.in === 'query' && paginationParams.has(p.name));
  if (cls === 'deep_nesting' || cls === 'many_items') return op.body !== undefined;
  if (cls === 'bad_id') {
    const named = op.parameters.some((p) => resourceOfName[p.name]);
    const body = Object.keys((op.body?.schema.properties ?? {}) as object).some((name) => resourceOfName[name]);
    return named || body || op.body !== undefined;
  }
  return true;
}

const kinds = Object.values(resourceOfName);

/** The value a class puts in, drawn by fast-check (interpreted per slot by `apply`). */
export function payloadArbitrary(cls: FuzzClass): fc.Arbitrary<unknown> {
  switch (cls) {
    case 'valid':
      return fc.constant(null);
    case 'bad_format':
      return fc.constantFrom(...unstorableTimes);
    case 'wrong_type':
      return fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.string({ maxLength: 8 }),
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
      );
    case 'nul':
      return fc.record({ at: fc.nat(), text: fc.constantFrom('\u0000', '\u0000\u0000', 'a\u0000b') });
    case 'lone_surrogate':
      return fc.record({ at: fc.nat(), text: fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800') });
    case 'huge_number':
      return fc.oneof(
        fc.constantFrom(
          1e308,
          -1e308,
          2 ** 31,
          2 ** 32,
          2 ** 53,
          2 ** 53 + 2,
          2 ** 63,
          2 ** 64,
          Number.MAX_VALUE,
          new RawJson('1e400'),
          new RawJson('-1e400'),
          new RawJson('123456789012345678901234567890'),
          new RawJson('9007199254740993'),
          new RawJson('1e-400'),
        ),
        fc.double({ min: 1e15, max: 1e300, noNaN: true }),
        fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }).map((n) => new RawJson(n.toString())),
      );
    case 'negative_number':
      return fc.oneof(
        fc.constantFrom(-1, -0.5, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 53), -1e20, -86_400, new RawJson('-0')),
        fc.integer({ min: -1_000_000_000, max: -1 }),
        fc.double({ min: -1e300, max: -1e-300, noNaN: true }),
      );
    case 'long_string':
      return fc.record({
        length: fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: 257, max: 20_000 }) },
          { weight: 3, arbitrary: fc.integer({ min: 20_001, max: 300_000 }) },
          { weight: 1, arbitrary: fc.constant(1_100_000) },
        ),
        unit: fc.constantFrom('a', 'é', '😀', ' ', '{first_name}'),
      });
    case 'unknown_field':
      return fc.record({
        name: fc.oneof(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'prototype',
            'toString',
            'hasOwnProperty',
            'id',
            'organization_id',
            'created_at',
            'success',
            'is_active',
          ),
          fc.string({ minLength: 1, maxLength: 20 }),
        ),
        value: fc.jsonValue({ maxDepth: 2 }),
      });
    case 'bad_id':
      return fc.oneof(
        fc.nat({ max: 1000 }).map((index) => ({ ref: 'foreign', index })),
        fc
          .tuple(fc.constantFrom(...kinds), fc.nat({ max: 1000 }))
          .map(([kind, index]) => ({ ref: 'other', kind, index })),
        fc
          .tuple(fc.constantFrom('upper', 'padded'), fc.nat({ max: 1000 }))
          .map(([variant, index]) => ({ ref: variant, index })),
        fc.uuid({ version: 4 }),
        fc.constantFrom(
          'not-a-uuid',
          '00000000-0000-0000-0000-000000000000',
          'ffffffff-ffff-ffff-ffff-ffffffffffff',
          '..',
          '.',
          '1',
          '0',
          '-1',
          'null',
          'undefined',
          "' OR 1=1 --",
          '{campaign_id}',
          'a'.repeat(300),
          '123e4567-e89b-12d3-a456-42661417400',
          '123e4567e89b12d3a456426614174000',
        ),
      );
    case 'many_items':
      // Arrays of many items, valid or wrong, up to past the 1 MB body limit: work per item
      // that grows with the others (a batch of wrong items once took 20 s at 16,000).
      return fc.record({
        count: fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 2, max: 2000 }) },
          { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 150_000 }) },
        ),
        item: fc.constantFrom('copy', 'empty', 'null', 'number', 'text'),
      });
    case 'deep_nesting':
      // Around the API's limit of 64 levels, and far past it (where recursive code overflows).
      return fc.oneof(fc.integer({ min: 55, max: 75 }), fc.integer({ min: 1000, max: 20_000 }));
    case 'bad_cursor':
      return fc.oneof(
        fc.constantFrom(
          '-1',
          '-0',
          '1e3',
          'abc',
          '',
          ' ',
          '1.5',
          '0x10',
          '+1',
          '01',
          '２',
          'Infinity',
          'NaN',
          'null',
          '[]',
          '1,2',
          '99999999999999999999',
          '9007199254740993',
          '2147483648',
          'eyJpZCI6MX0=',
          '2026-13-45T99:99:99Z',
          '0001-01-01T00:00:00Z',
          '9999-12-31T23:59:59.999Z',
          '2026-11-06T10:00:00+25:00',
        ),
        fc.string({ maxLength: 12 }),
        fc.constant({ twice: true }),
      );
    case 'bad_header':
      return fc.constantFrom<Record<string, string | null>>(
        { 'Content-Type': 'text/plain' },
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        { 'Content-Type': 'application/json; charset=iso-8859-1' },
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        { 'Content-Type': 'APPLICATION/JSON' },
        { 'Content-Type': 'application/merge-patch+json' },
        { 'Content-Type': null },
        { 'Idempotency-Key': '' },
        { 'Idempotency-Key': ' ' },
        { 'Idempotency-Key': 'k'.repeat(300) },
        { 'Idempotency-Key': 'clé' },
        { 'X-Request-ID': 'has spaces' },
        { 'X-Request-ID': 'x'.repeat(1000) },
        { 'X-Fuzz-Padding': 'a'.repeat(16_000) },
        { 'X-Fuzz-Padding': 'a'.repeat(70_000) },
        { Authorization: 'Bearer' },
        { Authorization: 'bearer {key}' },
        { Authorization: 'Basic b2NzOm9jcw==' },
        { Authorization: 'Bearer {key} {key}' },
        { Authorization: null },
      );
  }
}

export function apply(op: FuzzOperation, cls: FuzzClass, valid: ValidParts, choice: number, payload: unknown): Mutated {
  const parts: Mutated = {
    path: { ...valid.path },
    query: valid.query.map(([name, value]) => [name, value]),
    headers: { ...valid.headers },
    body: copy(valid.body),
    note: 'as generated',
  };
  if (cls === 'valid') return parts;
  if (cls === 'bad_header') {
    Object.assign(parts.headers, payload as Record<string, string | null>);
    parts.note = `headers ${JSON.stringify(Object.keys(payload as object))}`;
    if ('Content-Type' in (payload as object) && parts.body === undefined && op.body) parts.body = {};
    return parts;
  }
  if (cls === 'bad_cursor') {
    const names = op.parameters.filter((p) => p.in === 'query' && paginationParams.has(p.name)).map((p) => p.name);
    const name = names[choice % names.length] as string;
    parts.query = parts.query.filter(([n]) => n !== name);
    if (payload && typeof payload === 'object') parts.query.push([name, '1'], [name, '2']);
    else parts.query.push([name, payload]);
    parts.note = `query.${name} = ${JSON.stringify(payload)}`;
    return parts;
  }
  if (cls === 'unknown_field') {
    const { name, value } = payload as { name: string; value: unknown };
    const objects = slots(parts).filter((s) => s.where === 'body' && isObject(s.value));
    if (objects.length === 0) {
      parts.query.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
      parts.note = `query.${name} added`;
      return parts;
    }
    const slot = objects[choice % objects.length] as Slot;
    // A key like `__proto__` must be an own property of the JSON text, not a prototype.
    Object.defineProperty(slot.value as object, name, { value, enumerable: true, configurable: true, writable: true });
    parts.note = `body${where(slot.key)}.${name} added`;
    return parts;
  }
  const candidates = targets(cls, parts);
  if (candidates.length === 0) {
    const value = replacement(cls, { where: 'query', key: ['fuzz'], value: 'x' }, payload);
    parts.query.push(['fuzz', value]);
    parts.note = `query.fuzz added (no target)`;
    return parts;
  }
  const slot = candidates[choice % candidates.length] as Slot;
  const value = replacement(cls, slot, payload);
  set(parts, slot, value);
  const what = cls === 'bad_format' && value instanceof Ref ? 'its ID as urn:uuid:<id>' : describe(cls, payload);
  parts.note = `${slot.where}${where(slot.key)}: ${what}`;
  // JSON.parse reads it as an infinity, which JSON.stringify would store as null.
  if (slot.where === 'body' && value instanceof RawJson && /^-?1e400$/.test(value.text)) {
    parts.mustRefuse = 'a body number past a 64-bit float must be refused, not stored as null';
  }
  return parts;
}

/** The places a class may change; headers take neither NUL nor surrogates (Request refuses them). */
function targets(cls: FuzzClass, parts: Mutated): Slot[] {
  const all = slots(parts);
  switch (cls) {
    case 'bad_id':
      return all.filter(
        (s) =>
          s.value instanceof Ref ||
          (s.where !== 'header' && resourceOfName[String(s.key[s.key.length - 1])] !== undefined),
      );
    case 'nul':
    case 'lone_surrogate': {
      const texts = all.filter((s) => s.where !== 'header');
      const strings = texts.filter((s) => typeof s.value === 'string' || s.value instanceof Ref);
      return strings.length > 0 ? strings : texts;
    }
    case 'huge_number':
    case 'negative_number': {
      const numbers = all.filter((s) => typeof s.value === 'number');
      return numbers.length > 0 ? numbers : all.filter((s) => s.where !== 'header');
    }
    case 'long_string': {
      const strings = all.filter((s) => typeof s.value === 'string' || s.value instanceof Ref);
      return strings.length > 0 ? strings : all;
    }
    case 'deep_nesting': {
      const body = all.filter((s) => s.where === 'body');
      return body.length > 0 ? body : all;
    }
    case 'many_items': {
      // A body's arrays (a batch's items, a sequence's steps), else any place in the body.
      const body = all.filter((s) => s.where === 'body');
      const arrays = body.filter((s) => Array.isArray(s.value));
      return arrays.length > 0 ? arrays : body.length > 0 ? body : all;
    }
    case 'bad_format':
      // IDs (spelled as URNs) and times; without either, the query parameter fallback.
      return all.filter(
        (s) =>
          s.where !== 'header' &&
          (s.value instanceof Ref ||
            resourceOfName[String(s.key[s.key.length - 1])] !== undefined ||
            (typeof s.value === 'string' && timeLike.test(s.value))),
      );
    default:
      return all;
  }
}

function replacement(cls: FuzzClass, slot: Slot, payload: unknown): unknown {
  const text = slot.value instanceof Ref ? slot.value : typeof slot.value === 'string' ? slot.value : '';
  switch (cls) {
    case 'wrong_type': {
      if (typeOf(payload) !== typeOf(slot.value)) return inSlot(slot, payload);
      return inSlot(slot, typeof slot.value === 'number' ? 'seven' : 7);
    }
    case 'nul':
    case 'lone_surrogate': {
      const { at, text: inserted } = payload as { at: number; text: string };
      if (text instanceof Ref) return new Spliced(text, at, inserted);
      const position = at % (text.length + 1);
      return text.slice(0, position) + inserted + text.slice(position);
    }
    case 'huge_number':
    case 'negative_number':
      return slot.where === 'body' ? payload : payload instanceof RawJson ? payload.text : String(payload);
    case 'bad_format': {
      if (slot.value instanceof Ref) return new Ref(slot.value.kind, slot.value.index, false, 'urn');
      if (typeof slot.value === 'string' && timeLike.test(slot.value)) return payload;
      // An ID field the generator filled with a UUID of its own: the same, as a URN.
      return `urn:uuid:${typeof slot.value === 'string' ? slot.value : crypto.randomUUID()}`;
    }
    case 'long_string': {
      const { length, unit } = payload as { length: number; unit: string };
      // URLs stay under what a server could take; bodies go past the 1 MB limit at times.
      // Headers carry Latin-1 only, so their long values are of `a`.
      const max = slot.where === 'path' ? 10_000 : slot.where === 'body' ? length : 100_000;
      const repeated = slot.where === 'header' ? 'a' : unit;
      return repeated.repeat(Math.ceil(Math.min(length, max) / repeated.length));
    }
    case 'many_items': {
      const { count, item } = payload as { count: number; item: string };
      const own = Array.isArray(slot.value) ? (slot.value as unknown[])[0] : slot.value;
      const one = item === 'copy' ? own : item === 'empty' ? {} : item === 'null' ? null : item === 'number' ? 7 : 'x';
      const many = Array.from({ length: count }, () => copy(one));
      return slot.where === 'body' ? many : JSON.stringify(many).slice(0, 2000);
    }
    case 'deep_nesting': {
      // As JSON text: objects and arrays in turn, `depth` levels around a number.
      let nested = '1';
      for (let level = 0; level < (payload as number); level++) nested = level % 2 ? `[${nested}]` : `{"a":${nested}}`;
      return slot.where === 'body' ? new RawJson(nested) : nested.slice(0, 2000);
    }
    case 'bad_id': {
      const spec = payload as { ref?: string; kind?: ResourceKind; index?: number } | string;
      const kind =
        slot.value instanceof Ref ? slot.value.kind : (resourceOfName[String(slot.key.at(-1))] ?? 'campaign');
      if (typeof spec === 'string') return spec;
      if (spec.ref === 'foreign') return new Ref(kind, spec.index ?? 0, true);
      if (spec.ref === 'other')
        return new Ref(spec.kind === kind ? 'lead' : (spec.kind as ResourceKind), spec.index ?? 0);
      return new Ref(kind, spec.index ?? 0, false, spec.ref as 'upper' | 'padded');
    }
    default:
      return payload;
  }
}

/** Outside the body every value is text. */
function inSlot(slot: Slot, value: unknown): unknown {
  if (slot.where === 'body') return value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describe(cls: FuzzClass, payload: unknown): string {
  if (cls === 'long_string') {
    const { length, unit } = payload as { length: number; unit: string };
    return `${length} × ${JSON.stringify(unit)}`;
  }
  if (cls === 'many_items') {
    const { count, item } = payload as { count: number; item: string };
    return `an array of ${count} × ${item}`;
  }
  const text = JSON.stringify(payload instanceof RawJson ? payload.text : payload) ?? String(payload);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function slots(parts: Mutated): Slot[] {
  const result: Slot[] = [];
  for (const [name, value] of Object.entries(parts.path)) result.push({ where: 'path', key: [name], value });
  parts.query.forEach(([name, value], index) => result.push({ where: 'query', key: [index, name], value }));
  for (const [name, value] of Object.entries(parts.headers)) result.push({ where: 'header', key: [name], value });
  if (parts.body !== undefined) walk(parts.body, [], result);
  return result;
}

function walk(value: unknown, key: Key, into: Slot[]): void {
  into.push({ where: 'body', key, value });
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...key, index], into));
  else if (isObject(value)) for (const [name, item] of Object.entries(value)) walk(item, [...key, name], into);
}

function set(parts: Mutated, slot: Slot, value: unknown): void {
  if (slot.where === 'path') parts.path[slot.key[0] as string] = value;
  else if (slot.where === 'query') (parts.query[slot.key[0] as number] as [string, unknown])[1] = value;
  // A header value holds Latin-1 only (`Request` refuses more): other characters become `?`.
  else if (slot.where === 'header')
    parts.headers[slot.key[0] as string] = String(value).replaceAll(/[^\t\x20-\xff]/g, '?');
  else if (slot.key.length === 0) parts.body = value;
  else {
    let node = parts.body as Record<string | number, unknown>;
    for (const step of slot.key.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
    node[slot.key.at(-1) as string | number] = value;
  }
}

function where(key: Key): string {
  return key.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Ref) &&
    !(value instanceof RawJson) &&
    !(value instanceof Spliced)
  );
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Ref) return 'string';
  if (value instanceof RawJson) return 'number';
  return typeof value;
}

/** A deep copy that keeps `Ref` and `RawJson` values as they are. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  return value;
}
