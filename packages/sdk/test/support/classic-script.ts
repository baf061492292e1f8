/**
 * Code bundled into one classic script (esbuild, IIFE, browser platform), as a page or a
 * worker loads it, for the tests that run it in another runtime (Chromium, edge-runtime).
 */
import { build, type BuildOptions } from 'esbuild';

/** The bundle's text; throws when it reaches for a Node built-in (left as a require call). */
export async function bundleClassicScript(input: Pick<BuildOptions, 'entryPoints' | 'stdin'>): Promise<string> {
  const result = await build({
    ...input,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('esbuild produced no bundle');
  if (/\brequire\(["']|__require\b/.test(code)) throw new Error('the web bundle must not reach for Node APIs');
  return code;
}
