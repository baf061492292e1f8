/** Lower-case hexadecimal of bytes (signatures are `sha256=<hex>`). */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/** Bytes of a string of hex digits already checked to be of even length (`parseSignature`). */
export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
