/**
 * A signature that is neither a string nor a list of them (a number from a caller's own
 * parsing) is a signature that does not match, never a crash: `verifySignature` is documented
 * never to throw for a bad signature, and `verifyAndParse` refuses it as malformed.
 */
import { describe, expect, it } from 'vitest';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';

const secret = 'whsec_odd_signatures_0123456789';

describe.each([
  ['node', nodeEntry],
  ['web', webEntry],
] as const)('%s', (_name, entry) => {
  it('verifySignature answers false for a number, an object or a list with one', async () => {
    for (const signature of [5, {}, [5]]) {
      await expect(entry.verifySignature({ payload: '{}', signature: signature as never, secret })).resolves.toBe(
        false,
      );
    }
  });

  it('verifyAndParse refuses them as malformed_signature', async () => {
    await expect(entry.verifyAndParse({ payload: '{}', signature: 5 as never }, { secret })).rejects.toMatchObject({
      reason: 'malformed_signature',
    });
  });
});
