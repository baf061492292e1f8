/**
 * Signatures are compared in constant time: the Node entry through `timingSafeEqual`, the
 * web entry through `constantTimeEqual`, which must visit every byte whatever the input.
 */
import type * as NodeCrypto from 'node:crypto';
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Compare from '../src/webhooks/compare.ts';
import * as compare from '../src/webhooks/compare.ts';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCrypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
vi.mock('../src/webhooks/compare.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Compare>();
  return { constantTimeEqual: vi.fn(actual.constantTimeEqual) };
});

const secret = 'whsec_constant_time_0123';
const body = '{"event":"prospect_response","idempotency_key":"k"}';
const good = `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
// Differs from the good signature in the first hex digit only: an early-exit comparison
// would answer fastest for it.
const bad = `sha256=${good[7] === '0' ? '1' : '0'}${good.slice(8)}`;

afterEach(() => vi.clearAllMocks());

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
  it('decides through constantTimeEqual, for a match and a mismatch', async () => {
    const constantTimeEqual = vi.mocked(compare.constantTimeEqual);
    expect(await webEntry.verifySignature({ payload: body, signature: good, secret })).toBe(true);
    expect(await webEntry.verifySignature({ payload: body, signature: bad, secret })).toBe(false);
    expect(constantTimeEqual.mock.results.map((r) => r.value)).toEqual([true, false]);
    for (const [a, b] of constantTimeEqual.mock.calls) expect([a.length, b.length]).toEqual([32, 32]);
    expect(vi.mocked(crypto.timingSafeEqual)).not.toHaveBeenCalled();
  });
});

describe('constantTimeEqual', () => {
  const { constantTimeEqual } = compare;
  const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);

  it('answers like a byte-wise equality', () => {
    expect(constantTimeEqual(bytes, bytes.slice())).toBe(true);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
    expect(constantTimeEqual(bytes, bytes.subarray(0, 31))).toBe(false);
    for (let i = 0; i < bytes.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const other = bytes.slice();
        other[i] = (other[i] as number) ^ (1 << bit);
        expect(constantTimeEqual(bytes, other), `byte ${i} bit ${bit}`).toBe(false);
      }
    }
  });

  /** A byte array that counts which of its indices are read. */
  function counted(source: Uint8Array) {
    const reads = new Set<number>();
    const proxy = new Proxy(source, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.add(Number(key));
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { proxy, reads };
  }

  it('reads every byte of both inputs, wherever they first differ (no early exit)', () => {
    for (const differAt of [0, 1, 16, 31, undefined]) {
      const other = bytes.slice();
      if (differAt !== undefined) other[differAt] = (other[differAt] as number) ^ 0xff;
      const a = counted(bytes);
      const b = counted(other);
      constantTimeEqual(a.proxy, b.proxy);
      expect(a.reads.size, `differing at ${differAt}`).toBe(32);
      expect(b.reads.size, `differing at ${differAt}`).toBe(32);
    }
  });
});
