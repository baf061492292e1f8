/**
 * `ocs-server serve` starts reading PGlite's files before the rest of the server loads
 * (bin.ts, decision 0016), when the store is PGlite and help was not asked for: decided from
 * the options only, before any `--`, as cli.ts reads the command line. After `--`,
 * `--data-dir` is an operand (which `serve` refuses), and chose the store all the same: 15 MB
 * read and compiled for a command that was refused, and would have run on PostgreSQL.
 *
 * The built bin runs with a preloaded module that reports each read of `pglite.wasm` on stderr.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runCli, stopAll } from './processes.ts';

let scratch: string;
let reporter: string;
beforeAll(() => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), 'ocs-bin-preload-'));
  reporter = join(scratch, 'report-wasm-reads.cjs');
  // fs/promises' readFile, as pglite-artifacts.ts imports it: syncBuiltinESMExports hands
  // the wrapped function to ES modules too.
  writeFileSync(
    reporter,
    `const promises = require('node:fs/promises');
const { syncBuiltinESMExports } = require('node:module');
const readFile = promises.readFile;
promises.readFile = function (path, ...rest) {
  if (String(path).endsWith('pglite.wasm')) process.stderr.write('read pglite.wasm\\n');
  return readFile.call(this, path, ...rest);
};
syncBuiltinESMExports();
`,
  );
});
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the bin with the reporter; whether it read PGlite's module, and its stderr without that line. */
async function serve(args: string[], env: Record<string, string> = {}) {
  const result = await runCli(['serve', ...args], { env: { ...env, NODE_OPTIONS: `--require ${reporter}` } });
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  return {
    code: result.code,
    readPglite: lines.includes('read pglite.wasm'),
    said: lines.filter((line) => line !== 'read pglite.wasm'),
  };
}

/** A host no lookup finds: serve fails at once, before it opens any store (RFC 6761). */
const nowhere = ['--port', '0', '--host', 'nowhere.invalid'];

describe('the PGlite prefetch of ocs-server serve', () => {
  it('starts on PGlite (the reporter sees the read)', async () => {
    const result = await serve([...nowhere, '--data-dir', join(scratch, 'a')]);
    expect(result.readPglite).toBe(true);
    expect(result.code).toBe(1);
  });

  it('is off with PostgreSQL chosen, whatever --data-dir follows --', async () => {
    const result = await serve([...nowhere, '--', `--data-dir=${join(scratch, 'b')}`], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    });
    expect(result.said).toEqual([
      "ocs-server: serve takes no argument '--data-dir=" + join(scratch, 'b') + "'. Run ocs-server --help for usage.",
    ]);
    expect(result.readPglite).toBe(false);
  });

  it('is off for serve --help and serve -h, which print the usage', async () => {
    for (const help of ['--help', '-h']) {
      const result = await serve([help]);
      expect(result.code, help).toBe(0);
      expect(result.readPglite, help).toBe(false);
    }
  });
});
