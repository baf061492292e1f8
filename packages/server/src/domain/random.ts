/** Unguessable tokens from Web Crypto (Node, browsers and web-standard runtimes alike). */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random base62 characters, each equally likely (about 5.95 bits each). */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length + 16))) {
      // 248 = 4 * 62: rejecting the top 8 values keeps every character equally likely.
      if (byte < 248 && text.length < length) text += alphabet[byte % 62];
    }
  }
  return text;
}
