/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter (rand_a, method 1 of
 * section 6.2), then random bits. Lists order by `created_at desc, id desc`; records made in
 * the same millisecond tie on `created_at`, and with random (v4) IDs the tie broke at random,
 * so "newest first" could list the second of two campaigns made in one millisecond before the
 * third. With time-ordered IDs the tie breaks in creation order, in this process.
 */
let lastMs = -1;
let counter = 0;

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
    const [start = 0] = crypto.getRandomValues(new Uint16Array(1));
    counter = start & 0x7ff;
  }
  lastMs = ms;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 0; i < 6; i++) bytes[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
