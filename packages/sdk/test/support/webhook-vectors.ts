/**
 * Known-answer vectors for X-Signature-256 (HMAC-SHA256, hex), shared by the Node, browser and
 * edge-runtime tests. Each expected signature was computed with `openssl dgst -sha256 -hmac`,
 * an implementation independent of both entries; `webhooks.test.ts` re-derives them with
 * `node:crypto` too. Bodies that are not text are given as hex.
 */
export interface SignatureVector {
  name: string;
  secret: string;
  body: string | { hex: string };
  signature: string;
}

export const signatureVectors: SignatureVector[] = [
  {
    // GitHub's documented X-Hub-Signature-256 example: the scheme is byte-for-byte GitHub's.
    name: "GitHub's example",
    secret: "It's a Secret to Everybody",
    body: 'Hello, World!',
    signature: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
  },
  {
    name: 'RFC 4231 test case 2',
    secret: 'Jefe',
    body: 'what do ya want for nothing?',
    signature: 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'empty body',
    secret: 'whsec_empty_body_secret_01',
    body: '',
    signature: 'sha256=87f1d9acb47d2721277853bffd21fa081ec1d6b98e683b5c7ad3613860202423',
  },
  {
    name: 'non-ASCII secret and body (UTF-8)',
    secret: 'ünïcødé-sécret-ключ',
    body: '{"prospect_message":"Grüße, 你好 👋"}',
    signature: 'sha256=746a453c269e17ca14b1cfa55b720ba346163abe259204f9f7c3eba134ae841e',
  },
  {
    name: 'every byte value (not UTF-8)',
    secret: 'binary-body-secret-0123',
    body: { hex: Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).join('') },
    signature: 'sha256=17573e083bb1abdaea0a3df6022b4cf75b9e4b80a496c947cb6555afc3c961cc',
  },
  {
    name: 'secret longer than the SHA-256 block (hashed first)',
    secret: 'k'.repeat(100),
    body: 'The quick brown fox jumps over the lazy dog',
    signature: 'sha256=d545ebc800857f4b734cbdc38712fe226d36a8ac3469cad63650e5bc872cd76d',
  },
];

/** The vector's body as bytes. */
export function vectorBytes(vector: SignatureVector): Uint8Array {
  if (typeof vector.body === 'string') return new TextEncoder().encode(vector.body);
  return Uint8Array.from(vector.body.hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}
