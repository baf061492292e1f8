/**
 * The analytics window's query parameters: `date_filter` (where the window starts) and
 * `variation` (which A/B arm to count). The forms accepted are the document's: `Nd` for N
 * from 1 to 3650 days back from now, an ISO 8601 date-time with an offset or `Z`, or a date
 * meaning midnight UTC. The same timestamp forms serve `since` of the bookings list.
 */
import { ApiError } from '../http/api-error.ts';
import { isStorableInstant } from './storable-time.ts';

export type VariationFilter = 'a' | 'b' | 'unassigned' | 'all';

export const maxDays = 3650;
const dayMs = 86_400_000;

const daysPattern = /^(\d+)d$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339's profile of ISO 8601 (T and Z in either case), seconds and fractions optional.
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an ISO 8601 date-time (with an offset or `Z`) or date (midnight UTC) stands
 * for, as `toISOString()` gives it; null when `value` is neither, names no real moment
 * (`2026-02-30`, `24:00`) or one outside years 1 to 9999 (storable-time.ts).
 */
export function parseTimestamp(value: string): string | null {
  const date = datePattern.exec(value);
  if (date) {
    const [year, month, day] = date.slice(1).map(Number) as [number, number, number];
    return validDate(year, month, day) ? storedForm(utc(year, month, day)) : null;
  }
  const match = dateTimePattern.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = Number(match[6] ?? 0);
  const fraction = match[7] ?? '';
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (!match[8]) {
    const offsetHours = Number(match[10]);
    const offsetMins = Number(match[11]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = fraction === '' ? 0 : Math.floor(Number(`0${fraction}`) * 1000);
  return storedForm(utc(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000);
}

/** `toISOString()` of an instant the stores hold; null for any other. */
function storedForm(millis: number): string | null {
  return isStorableInstant(millis) ? new Date(millis).toISOString() : null;
}

/** Milliseconds of a UTC time; unlike `Date.UTC`, years 0-99 stay as written. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(utc(year, month + 1, 0)).getUTCDate();
}

/**
 * The window's start for `date_filter`: null for all time (omitted or empty), `now` minus N
 * days for `Nd`, or the instant of a timestamp. Anything else answers
 * `400 INVALID_DATE_FILTER`, with a message that says which forms work.
 */
export function parseDateFilter(value: string | null | undefined, now: Date): string | null {
  if (value === undefined || value === null || value === '') return null;
  const days = daysPattern.exec(value);
  if (days) {
    const count = Number(days[1]);
    if (count < 1 || count > maxDays) {
      throw new ApiError(
        400,
        'INVALID_DATE_FILTER',
        `date_filter '${value}' is out of range: use 1d to ${maxDays}d, or an ISO 8601 timestamp such as 2026-10-01T00:00:00+00:00.`,
      );
    }
    return new Date(now.getTime() - count * dayMs).toISOString();
  }
  const instant = parseTimestamp(value);
  if (instant === null) {
    throw new ApiError(
      400,
      'INVALID_DATE_FILTER',
      `date_filter '${value}' is neither a number of days (such as 30d) nor an ISO 8601 timestamp ` +
        'of years 0001 to 9999 (such as 2026-10-01T00:00:00+00:00 or 2026-10-01).',
    );
  }
  return instant;
}

const variations: readonly VariationFilter[] = ['a', 'b', 'unassigned', 'all'];

/** `variation`: `all` when omitted; `400 INVALID_VARIATION` for anything but the four arms. */
export function parseVariation(value: string | null | undefined): VariationFilter {
  if (value === undefined || value === null) return 'all';
  if ((variations as readonly string[]).includes(value)) return value as VariationFilter;
  throw new ApiError(400, 'INVALID_VARIATION', `variation '${value}' is not one of a, b, unassigned, all.`);
}
