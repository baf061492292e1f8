/**
 * The client (not only the webhook verifier) in a web-standard runtime: Vercel's
 * `edge-runtime`, which has no Node APIs. Bundled from the sources for the browser platform;
 * a bundle that reached for a Node built-in would fail here. (In a real Chromium the client
 * is exercised by @ocs/mock's browser test, through MSW's service worker.)
 */
import { join } from 'node:path';
import { EdgeRuntime } from 'edge-runtime';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

it('calls, retries a 429, pages and types errors inside edge-runtime', async () => {
  const bundled = await build({
    entryPoints: [join(import.meta.dirname, 'support', 'edge-client.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'edgeClient',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  expect(code).not.toMatch(/\brequire\(["']|__require\b/);
  const runtime = new EdgeRuntime({ initialCode: code });
  expect(runtime.evaluate<string>('typeof require')).toBe('undefined');
  const result = JSON.parse(await runtime.evaluate<Promise<string>>('edgeClient.runEdgeClient()')) as {
    name: string;
    paged: string[];
    notFound: { name: string; code: string; requestId: string; typed: boolean };
    seen: string[];
  };
  expect(result.name).toBe('Edge');
  expect(result.paged).toHaveLength(5);
  expect(new Set(result.paged).size).toBe(5);
  expect(result.notFound).toEqual({
    name: 'OcsNotFoundError',
    code: 'CAMPAIGN_NOT_FOUND',
    requestId: 'req_404',
    typed: true,
  });
  // The 429 was retried once; every request carried the key as a bearer token.
  expect(result.seen.filter((line) => line.includes('/v1/campaigns/3c9e7a52'))).toHaveLength(2);
  expect(result.seen.every((line) => line.endsWith('Bearer ocs_edge0000000000000000000000000000000000'))).toBe(true);
  expect(result.seen.filter((line) => line.startsWith('GET /v1/leads'))).toHaveLength(3);
});
