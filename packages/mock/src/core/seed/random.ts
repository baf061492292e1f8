/**
 * A seeded pseudo-random source (sfc32), so that the same seed gives the same IDs, names and
 * API key on every run and every platform. Not for secrets: the mock's key guards nothing.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  /** One element of `items`. */
  pick<T>(items: readonly T[]): T;
  /** A version-4-shaped UUID. */
  uuid(): string;
  /** `length` characters of [A-Za-z0-9]. */
  base62(length: number): string;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function seededRandom(seed: number): SeededRandom {
  // sfc32 seeded through splitmix32, so that nearby seeds give unrelated sequences.
  let mix = seed >>> 0;
  const splitmix = () => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  const int = (max: number) => Math.floor((next32() / 0x1_0000_0000) * max);
  const hex = (count: number) => {
    let text = '';
    for (let i = 0; i < count; i++) text += (next32() & 15).toString(16);
    return text;
  };
  return {
    next: () => next32() / 0x1_0000_0000,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(4)]}${hex(3)}-${hex(12)}`,
    base62: (length: number) => Array.from({ length }, () => alphabet[int(62)]).join(''),
  };
}
