/** Lower-case hexadecimal of bytes (signatures are `sha256=<hex>`). */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/** Bytes of the 64 hex digits of a signature `parseSignature` accepted (never empty, so `match` finds pairs). */
export function fromHex(hex: string): Uint8Array {
  // The shortest form once minified: `verifyAndParse` on the web build has a size budget.
  return Uint8Array.from(hex.match(/../g) as string[], (pair) => parseInt(pair, 16));
}
