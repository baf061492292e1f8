/**
 * `instanceof` for the SDK's error classes across copies of the SDK in one process: the
 * CommonJS and ESM builds (the dual package hazard: an error thrown by `require('@ocs/sdk')`
 * and caught by code that imported it), the entries that CommonJS bundles apart (tsup splits
 * no chunks there), or two installed versions. Each class's prototype carries its brand
 * (its name) under a `Symbol.for` key, the same symbol in every copy; `instanceof` of a
 * class looks for its brand along the value's prototype chain (OcsError's `Symbol.hasInstance`), so that a
 * subclass's instance matches its parents but a parent's instance never matches a subclass.
 * A class with no brand of its own (a user's subclass) gets the ordinary check.
 *
 * The webhooks' error classes (src/webhooks/errors.ts) use the same key, spelled there so
 * that the verifier's entries share no chunk with the client's.
 */

/** One key for every copy of the SDK (`Symbol.for` is the realm's registry). */
export const key = Symbol.for('@ocs/sdk.class');

export type Branded = { [key]?: string };

/** Gives a class's prototype its brand: called in a `static {}` block of the class. */
export const brand = (Class: { prototype: object }, name: string): void => {
  (Class.prototype as Branded)[key] = name;
};
