/**
 * The Web Crypto entry in a web-standard runtime: Vercel's `edge-runtime` (the EdgeVM of
 * Next.js middleware and Vercel edge functions), which has no Node APIs. Same vectors as the
 * Node and browser tests.
 */
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebCheck } from './support/web-checks.ts';
import { bundleWebChecks, expectedCheckCount, webChecksInput } from './support/web-checks-harness.ts';

describe('webhooks in edge-runtime', () => {
  let runtime: EdgeRuntime;

  beforeAll(async () => {
    runtime = new EdgeRuntime({ initialCode: await bundleWebChecks() });
  });

  it('has no Node APIs to fall back on', () => {
    expect(runtime.evaluate<string>('typeof process === "undefined" || typeof process.versions?.node')).not.toBe(
      'string',
    );
    expect(runtime.evaluate<string>('typeof require')).toBe('undefined');
    expect(runtime.evaluate<string>('typeof crypto.subtle.sign')).toBe('function');
  });

  it('passes the known-answer vectors and parses signed Requests', async () => {
    const input = webChecksInput();
    const json = await runtime.evaluate<Promise<string>>(`runWebChecks(${JSON.stringify(input)})`);
    const checks = JSON.parse(json) as WebCheck[];
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks).toHaveLength(expectedCheckCount(input));
  });
});
