/**
 * Compares two byte arrays in time that depends only on their length, never on where they
 * first differ: every byte is visited and differences are OR-ed together, so a forger
 * cannot learn a correct prefix of the signature from response times. (The Node entry uses
 * `timingSafeEqual` from `node:crypto` instead.) The lengths are public: both are 32 bytes.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
