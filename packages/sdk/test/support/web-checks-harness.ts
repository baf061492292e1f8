/**
 * Runs `web-checks.ts` in another runtime: bundles it with the Web Crypto entry into one
 * classic script, and prepares its input in Node.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { bundleClassicScript } from './classic-script.ts';
import { exampleEvent } from './event.ts';
import type { WebChecksInput } from './web-checks.ts';
import { signatureVectors, vectorBytes } from './webhook-vectors.ts';

/** The checks and the Web Crypto entry as one classic script defining `runWebChecks`. */
export function bundleWebChecks(): Promise<string> {
  return bundleClassicScript({ entryPoints: [join(import.meta.dirname, 'web-checks.ts')] });
}

export function webChecksInput(): WebChecksInput {
  const secret = 'whsec_runtime_0123456789';
  const event = exampleEvent() as unknown as Record<string, unknown>;
  const body = JSON.stringify({ ...event, unknown_future_field: ['kept'] });
  return {
    vectors: signatureVectors.map((vector) => ({
      name: vector.name,
      secret: vector.secret,
      ...(typeof vector.body === 'string' ? { text: vector.body } : {}),
      hex: Buffer.from(vectorBytes(vector)).toString('hex'),
      signature: vector.signature,
    })),
    secret,
    event,
    signedElsewhere: { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` },
  };
}

/** How many checks `runWebChecks` reports for an input: the tests assert none went missing. */
export function expectedCheckCount(input: WebChecksInput): number {
  const perVector = input.vectors.reduce((sum, vector) => sum + (vector.text === undefined ? 5 : 6), 0);
  return perVector + 5;
}
