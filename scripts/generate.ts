/**
 * `npm run generate`: bundles openapi/openapi.yaml and writes everything derived from it.
 * `--check` writes nothing and exits 1 when a checked-in file differs from a fresh
 * generation (the drift test runs it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateOutputs, repoRoot } from './generate/outputs.ts';

const check = process.argv.includes('--check');
const outputs = await generateOutputs();
const drifted: string[] = [];

for (const [path, content] of outputs) {
  const absolute = join(repoRoot, path);
  const current = existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
  if (current === content) continue;
  if (check) {
    drifted.push(path);
    continue;
  }
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, content);
  console.log(`wrote ${path}`);
}

if (check && drifted.length > 0) {
  console.error(
    `Generated files differ from a fresh generation of openapi/openapi.yaml:\n  ${drifted.join('\n  ')}\nRun \`npm run generate\` and commit the result.`,
  );
  process.exit(1);
}
if (check) console.log(`${outputs.size} generated files are up to date.`);
