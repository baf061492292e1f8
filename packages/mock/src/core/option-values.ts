/**
 * How the mock checks a value given to it from JavaScript, where no type stops a caller: the
 * options objects of `createOcsMock`, the scenarios and the sandbox. A wrong type or an
 * unknown name is a `TypeError`; a number out of range a `RangeError`; each names the option.
 */

/** A whole number of at least `min` (undefined: not given). */
export function wholeNumber(value: unknown, name: string, min: number, unit = ''): void {
  if (value === undefined) return;
  if (typeof value !== 'number') throw new TypeError(`@ocs/mock: ${name} must be a number, got ${shown(value)}.`);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(
      `@ocs/mock: ${name} must be a whole number${unit ? ` of ${unit}` : ''} >= ${min}, got ${shown(value)}.`,
    );
  }
}

/** The options object (undefined: none given), with only the names `label` takes. */
export function optionsOf(value: unknown, label: string, names: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new TypeError(`@ocs/mock: ${label} takes an object ({ ${names.join(', ')} }), got ${shown(value)}.`);
  }
  // A misspelt option would otherwise be ignored: `{ operation: [...] }` would fault every operation.
  const unknown = Object.keys(value).filter((key) => !names.includes(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `@ocs/mock: ${label} has no option ${unknown.map((key) => `"${key}"`).join(', ')}; it takes ${names.join(', ')}.`,
    );
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a message shows it: JSON where it has one (a string quoted), else its name. */
export function shown(value: unknown): string {
  if (typeof value === 'number' || value === undefined) return String(value);
  // As written in code: `10n` is no number, and showing it as `10` hid why it was refused.
  if (typeof value === 'bigint') return `${value}n`;
  // JSON shows an invalid Date as `null`, which is not what was given.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}
