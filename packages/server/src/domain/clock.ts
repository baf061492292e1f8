/**
 * The service's notion of now. The system clock by default; the sandbox clock (issue 5) can
 * be advanced so that weeks of a campaign play out in a test in milliseconds.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 with a `+00:00` offset, the form the API answers (section 2). */
export function toApiTime(iso: string): string;
export function toApiTime(iso: string | null): string | null;
export function toApiTime(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/Z$/, '+00:00');
}
