/**
 * What a test must not change on the mock: `mock.data` describes the seeded state that
 * `reset()` returns to, and the store does not read it back, so a test that sorted its leads
 * or renamed a campaign in place would leave the next test a description of a state that
 * never was. Freezing makes such a change fail where it is made (a `TypeError` in strict
 * code, which ES modules are), at no cost per read; a test that wants its own copy takes one
 * (`structuredClone(mock.data)`, `[...mock.data.leads].sort(...)`).
 */

/**
 * `T` as `deepFreeze` leaves it: every property and array element read-only, all the way
 * down, so that the compiler refuses the change the runtime would (`mock.data.leads.sort()`,
 * `campaign.name = ...`). Functions are left as they are.
 */
export type DeepReadonly<T> = T extends (...args: never) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** `value`, with every object and array in it frozen. */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value as DeepReadonly<T>;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value as DeepReadonly<T>;
}

/** Makes `keys` of `object` read-only (not writable, not configurable); the rest stay as they are (spies may wrap methods). */
export function readOnlyFields<T extends object>(object: T, ...keys: ReadonlyArray<keyof T & string>): T {
  for (const key of keys) Object.defineProperty(object, key, { writable: false, configurable: false });
  return object;
}
