/**
 * Checks of the Web Crypto entry, bundled with it (see `bundleWebChecks`) and run inside a
 * browser page or an edge runtime: there they sign and verify the known-answer vectors,
 * parse a signed `Request`, and report each outcome as JSON for the Node test to assert.
 * Nothing here may use Node APIs.
 */
import * as webhooks from '../../src/webhooks/web.ts';

export interface WebChecksInput {
  vectors: Array<{ name: string; secret: string; text?: string; hex: string; signature: string }>;
  secret: string;
  event: Record<string, unknown>;
  /** A body and its signature computed outside, with node:crypto. */
  signedElsewhere: { body: string; signature: string };
}

export interface WebCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));

async function reasonOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return error instanceof webhooks.WebhookVerificationError ? error.reason : String(error);
  }
}

export async function runWebChecks(input: WebChecksInput): Promise<string> {
  const checks: WebCheck[] = [];
  const check = async (name: string, run: () => Promise<unknown>, expected: unknown) => {
    try {
      const actual = await run();
      checks.push({ name, ok: actual === expected, detail: `${String(actual)} (expected ${String(expected)})` });
    } catch (error) {
      checks.push({ name, ok: false, detail: String(error) });
    }
  };
  const url = 'https://receiver.test/hooks';

  for (const vector of input.vectors) {
    const bytes = fromHex(vector.hex);
    const { signature, secret } = vector;
    await check(`${vector.name}: sign`, () => webhooks.sign(bytes, secret), signature);
    if (vector.text !== undefined) {
      const text = vector.text;
      await check(
        `${vector.name}: verify string`,
        () => webhooks.verifySignature({ payload: text, signature, secret }),
        true,
      );
    }
    await check(
      `${vector.name}: verify Uint8Array`,
      () => webhooks.verifySignature({ payload: bytes, signature, secret }),
      true,
    );
    await check(
      `${vector.name}: verify ArrayBuffer`,
      () => webhooks.verifySignature({ payload: bytes.slice().buffer, signature, secret }),
      true,
    );
    await check(
      `${vector.name}: verify Request`,
      () =>
        webhooks.verifySignature({
          payload: new Request(url, { method: 'POST', body: bytes.slice() }),
          signature,
          secret,
        }),
      true,
    );
    await check(
      `${vector.name}: reject another secret`,
      () => webhooks.verifySignature({ payload: bytes, signature, secret: `${secret}x` }),
      false,
    );
  }

  const { secret, event, signedElsewhere } = input;
  await check(
    'verifyAndParse a Request from createSignedRequest',
    async () =>
      JSON.stringify(
        await webhooks.verifyAndParse(await webhooks.createSignedRequest(url, event as never, secret), { secret }),
      ),
    JSON.stringify(event),
  );
  await check(
    'verifyAndParse a Request signed with node:crypto',
    async () => {
      const request = new Request(url, {
        method: 'POST',
        body: signedElsewhere.body,
        headers: { 'content-type': 'application/json', 'x-signature-256': signedElsewhere.signature },
      });
      return JSON.stringify(await webhooks.verifyAndParse(request, { secret: ['whsec_rotated_out_0001', secret] }));
    },
    signedElsewhere.body,
  );
  await check(
    'verifyAndParse rejects a wrong signature',
    () =>
      reasonOf(() =>
        webhooks.verifyAndParse({ payload: signedElsewhere.body, signature: `sha256=${'0'.repeat(64)}` }, { secret }),
      ),
    'signature_mismatch',
  );
  await check(
    'verifyAndParse rejects a missing signature',
    () => reasonOf(() => webhooks.verifyAndParse(new Request(url, { method: 'POST', body: '{}' }), { secret })),
    'missing_signature',
  );
  await check(
    'verifyAndParse rejects a parsed body',
    () =>
      reasonOf(() =>
        webhooks.verifyAndParse({ payload: event as never, signature: signedElsewhere.signature }, { secret }),
      ),
    'parsed_body',
  );
  return JSON.stringify(checks);
}

(globalThis as { runWebChecks?: typeof runWebChecks }).runWebChecks = runWebChecks;
