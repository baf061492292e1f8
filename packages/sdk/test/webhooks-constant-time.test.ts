/**
 * Signatures are compared in constant time: the Node entry through `timingSafeEqual`, the
 * web entry by Web Crypto itself (`crypto.subtle.verify`, whose HMAC verification compares
 * in constant time in every engine: BoringSSL's CRYPTO_memcmp in Chromium, Node and Bun,
 * NSS in Firefox, ring in Deno), never by a comparison of its own.
 */
import type * as NodeCrypto from 'node:crypto';
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCrypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const secret = 'whsec_constant_time_0123';
const body = '{"event":"prospect_response","idempotency_key":"k"}';
const good = `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
// Differs from the good signature in the first hex digit only: an early-exit comparison
// would answer fastest for it.
const bad = `sha256=${good[7] === '0' ? '1' : '0'}${good.slice(8)}`;

afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

describe('the Node entry', () => {
  it('decides through timingSafeEqual, on equal-length inputs, for a match and a mismatch', async () => {
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    expect(await nodeEntry.verifySignature({ payload: body, signature: good, secret })).toBe(true);
    expect(await nodeEntry.verifySignature({ payload: body, signature: bad, secret })).toBe(false);
    await expect(nodeEntry.verifyAndParse({ payload: body, signature: bad }, { secret })).rejects.toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
    expect(timingSafeEqual.mock.results.map((r) => r.value)).toEqual([true, false, false]);
    for (const [a, b] of timingSafeEqual.mock.calls) expect([a.byteLength, b.byteLength]).toEqual([64, 64]);
  });
});

describe('the web entry', () => {
  it('decides through crypto.subtle.verify with the 32 bytes of the signature, for a match and a mismatch', async () => {
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    expect(await webEntry.verifySignature({ payload: body, signature: good, secret })).toBe(true);
    expect(await webEntry.verifySignature({ payload: body, signature: bad, secret })).toBe(false);
    await expect(webEntry.verifyAndParse({ payload: body, signature: bad }, { secret })).rejects.toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(verify).toHaveBeenCalledTimes(3);
    expect(await Promise.all(verify.mock.results.map((r) => r.value as Promise<boolean>))).toEqual([
      true,
      false,
      false,
    ]);
    for (const [algorithm, , signature] of verify.mock.calls) {
      expect(algorithm).toBe('HMAC');
      expect((signature as Uint8Array).byteLength).toBe(32);
    }
    // No digest computed to be compared here instead.
    expect(sign).not.toHaveBeenCalled();
    expect(vi.mocked(crypto.timingSafeEqual)).not.toHaveBeenCalled();
  });
});
