/**
 * Headers as a plain object (lower-case names), for the journal and for what the standalone
 * mock writes on. `__proto__` is a valid header name: `record[name] = value` would call
 * Object.prototype's setter with it, which ignores a string, and the header would vanish.
 * Each header is an own property, as `Object.fromEntries` makes them; a loop rather than
 * `Object.fromEntries`, which walks the `Headers` iterator through the generic iteration
 * protocol at about twice the cost.
 */
export function headerRecord<V>(headers: Iterable<readonly [string, V]>): Record<string, V> {
  const record: Record<string, V> = {};
  for (const [name, value] of headers) setHeader(record, name, value);
  return record;
}

/** `record[name] = value`, an own property also for `__proto__`. */
export function setHeader<V>(record: Record<string, V>, name: string, value: V): void {
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}
