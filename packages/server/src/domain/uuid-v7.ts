/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter (rand_a, method 1 of
 * section 6.2), then random bits. Lists order by `created_at desc, id desc`; records made in
 * the same millisecond tie on `created_at`, and with random (v4) IDs the tie broke at random,
 * so "newest first" could list the second of two campaigns made in one millisecond before the
 * third. With time-ordered IDs the tie breaks in creation order, in this process.
 */
let lastMs = -1;
let counter = 0;

/**
 * Random bytes drawn from the CSPRNG a pool at a time: one `getRandomValues` call per ID cost
 * about as much as the rest of a lead's record (an import of 5,000 leads draws 5,000 IDs).
 */
const pool = new Uint8Array(8 * 1024);
let poolOffset = pool.length;

function randomBytes(count: number): number {
  if (poolOffset + count > pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += count;
  return at;
}

const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function uuidV7(now: number = Date.now()): string {
  let ms = now;
  if (ms <= lastMs) {
    // Same millisecond (or the clock stepped back): count on; when the 12-bit counter is
    // spent, borrow the next millisecond, as RFC 9562 allows, to stay monotonic.
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      ms += 1;
      counter = 0;
    }
  } else {
    // A random start below half the range leaves room to count up within the millisecond.
    const at = randomBytes(2);
    counter = (((pool[at] as number) << 8) | (pool[at + 1] as number)) & 0x7ff;
  }
  lastMs = ms;
  // 8 random bytes: the variant's byte (its top two bits replaced) and the 7 after it.
  const r = randomBytes(8);
  const byte = (i: number) => hex[pool[r + i] as number] as string;
  const high = Math.floor(ms / 2 ** 16); // the first 32 bits of the 48
  const low = ms % 2 ** 16;
  return (
    high.toString(16).padStart(8, '0') +
    '-' +
    low.toString(16).padStart(4, '0') +
    '-' +
    hex[0x70 | (counter >> 8)] +
    hex[counter & 0xff] +
    '-' +
    hex[0x80 | ((pool[r] as number) & 0x3f)] +
    byte(1) +
    '-' +
    byte(2) +
    byte(3) +
    byte(4) +
    byte(5) +
    byte(6) +
    byte(7)
  );
}
