/**
 * The `format`s the request validators check: ajv-formats' full set, with the three that
 * carry the service's IDs and times narrowed to what the stores can hold. A value ajv-formats
 * let through and a store then refused answered `500`:
 *
 * - `uuid`: RFC 4122's string form only, 8-4-4-4-12 hex digits (JSON Schema's reading).
 *   ajv-formats also takes a `urn:uuid:` prefix, which PostgreSQL's `uuid` type refuses.
 * - `date-time` and `date`: an instant the stores hold (storable-time.ts: years 1 to 9999)
 *   that JavaScript can read. RFC 3339 also allows year 0000, a leap second (`23:59:60`) and
 *   an offset without minutes (`+01`): `Date` parses neither of the last two.
 *
 * `npm run generate` compiles the validators with these (their code names `ocsFormats`),
 * and the server runs them from validator-runtime.ts.
 */
import type { FormatDefinition } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isStorableInstant } from '../domain/storable-time.ts';

/** ajv-formats' check, then ours on the same text. */
function narrowed(name: 'date-time' | 'date', within: (text: string) => boolean): FormatDefinition<string> {
  const base = fullFormats[name] as FormatDefinition<string> & { validate: (text: string) => boolean };
  return { ...base, validate: (text: string) => base.validate(text) && within(text) };
}

export const uuidForm = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ocsFormats = {
  ...fullFormats,
  uuid: uuidForm,
  'date-time': narrowed('date-time', (text) => isStorableInstant(Date.parse(text))),
  date: narrowed('date', (text) => isStorableInstant(Date.parse(`${text}T00:00:00Z`))),
};

/** The formats Ajv must take over ajv-formats' at generation (the rest are ajv-formats' own). */
export const narrowedFormatNames = ['uuid', 'date-time', 'date'] as const;
