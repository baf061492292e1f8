/**
 * The runtime checks as a script for the runtimes that evaluate one (Chromium, edge-runtime):
 * bundled with esbuild from `@ocs/sdk` and `@ocs/sdk/webhooks` as an application's bundler
 * resolves them (the package's `exports`, from dist/), it defines
 * `runRuntimeChecks(input)`, which resolves to the report's JSON lines. Which verifier build
 * the bundler picked, the bundle's metafile says (a bundle has no `import.meta.resolve`).
 */
import * as sdk from '@ocs/sdk';
import * as webhooks from '@ocs/sdk/webhooks';
import { runRuntimeChecks } from './checks.js';

/** @param {import('./types.ts').RuntimeCheckInput} input */
async function run(input) {
  /** @type {string[]} */
  const lines = [];
  await runRuntimeChecks(sdk, [{ label: 'resolved', url: undefined, module: webhooks }], input, (line) =>
    lines.push(JSON.stringify(line)),
  );
  return lines.join('\n');
}

/** @type {{ runRuntimeChecks?: typeof run }} */ (globalThis).runRuntimeChecks = run;
