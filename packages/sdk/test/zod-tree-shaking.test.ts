/**
 * `@ocs/sdk/zod` is paid for by what is imported: a bundle that imports one schema keeps it
 * and what it references, not the other schemas nor the operation maps.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

it('keeps only the imported schema and its references in a bundle', async () => {
  const entry = JSON.stringify(join(import.meta.dirname, '..', 'src', 'zod.ts'));
  const result = await build({
    stdin: {
      contents: `export { ProspectResponseEvent } from ${entry};`,
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    external: ['zod'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  expect(code).toMatch(/prospect_response/);
  expect(code).toMatch(/awaiting_prospect/); // AiResponse, referenced by the event
  expect(code).not.toMatch(/variation_a/); // Sequence
  expect(code).not.toMatch(/PREFLIGHT_FAILED/); // ErrorCode and the error bodies
  expect(code.length).toBeLessThan(4_000);
});
