/**
 * The standalone mock's code cache (src/server/compile-cache.ts), in real Node processes: a
 * kept start writes V8's cache, the next start uses it, and nothing about the cache (missing,
 * corrupt, for another source, in a folder others may write, off) changes what the program
 * does. Then the bin itself: a start that listened leaves a cache that the next start uses.
 */
import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireRuntime } from '../../../scripts/test-support/runtimes.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const loader = join(root, 'dist', 'server', 'compile-cache.cjs');
const bin = join(root, 'bin', 'ocs-mock.cjs');
// Node >= 22.1 caches with its own module.enableCompileCache, and the loader leaves it to Node.
const nodeHasItsOwn = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

let work: string;
let cacheRoot: string;
let bundle: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'ocs-compile-cache-'));
  cacheRoot = join(work, 'cache');
  bundle = join(work, 'bundle.cjs');
  writeBundle('exported');
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

/** This process's environment with the test's cache root, and the cache not turned off. */
function cacheEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: cacheRoot };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  return env;
}

/** A CommonJS bundle that uses what a bundle may: require (also later), __filename, __dirname. */
function writeBundle(word: string): void {
  writeFileSync(
    bundle,
    `'use strict';
const { basename } = require('node:path');
exports.word = ${JSON.stringify(word)};
exports.where = basename(__filename) + ' in ' + basename(__dirname);
exports.later = () => Promise.resolve().then(() => typeof require('node:path').join);
`,
  );
}

/** Loads the bundle in a new process; `keep` calls keep(). Prints what it saw as JSON. */
async function load(options: { keep?: boolean; env?: Record<string, string>; node?: string } = {}) {
  const program = `
const { loadWithCompileCache } = await import(${JSON.stringify(loader)});
const loaded = loadWithCompileCache(${JSON.stringify(bundle)});
const { word, where, later } = loaded.exports;
console.log(JSON.stringify({ cache: loaded.cache, word, where, later: await later() }));
if (${options.keep ?? true}) loaded.keep();
`;
  const { stdout } = await run(options.node ?? process.execPath, ['--input-type=module', '-e', program], {
    env: { ...cacheEnvironment(), ...options.env },
  });
  return JSON.parse(stdout) as { cache: string; word: string; where: string; later: string };
}

function cacheFiles(): string[] {
  if (!existsSync(cacheRoot)) return [];
  return readdirSync(cacheRoot, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(nodeHasItsOwn)('on Node 20 (no module.enableCompileCache)', () => {
  it('a kept run writes the cache; the next run uses it and does the same', async () => {
    const first = await load();
    expect(first).toEqual({
      cache: 'missing',
      word: 'exported',
      where: 'bundle.cjs in ' + work.split('/').pop(),
      later: 'function',
    });
    const [file] = cacheFiles();
    expect(cacheFiles()).toHaveLength(1);
    expect(statSync(file as string).size).toBeGreaterThan(0);
    if (process.platform !== 'win32') {
      expect(statSync(file as string).mode & 0o777).toBe(0o600);
      expect(statSync(join(file as string, '..')).mode & 0o777).toBe(0o700);
    }
    const second = await load();
    expect(second).toEqual({ ...first, cache: 'used' });
  });

  it('a bundle with text beyond ASCII reads as UTF-8, cached or not (ASCII is read as Latin-1)', async () => {
    writeBundle('café ✓ 東京');
    expect(await load()).toMatchObject({ cache: 'missing', word: 'café ✓ 東京' });
    expect(await load()).toMatchObject({ cache: 'used', word: 'café ✓ 東京' });
    // One byte changed inside a multi-byte character: the same byte length, another checksum.
    writeBundle('café ✓ 東亰');
    expect(await load()).toMatchObject({ cache: 'missing', word: 'café ✓ 東亰' });
  });

  it.skipIf(process.platform !== 'linux')(
    'a cache root that cannot be made (under /proc, where Node 20 recursive mkdir spins) is no cache, at once',
    async () => {
      const loaded = await load({ env: { NODE_COMPILE_CACHE: '/proc/ocs-no-such-dir/cache' } });
      expect(loaded).toMatchObject({ cache: 'off', word: 'exported' });
    },
  );

  it('a run that is not kept writes nothing', async () => {
    expect((await load({ keep: false })).cache).toBe('missing');
    expect(cacheFiles()).toEqual([]);
  });

  it('a changed bundle of the same length never runs with the cache of the old one', async () => {
    await load();
    writeBundle('imported');
    const changed = await load();
    expect(changed).toMatchObject({ cache: 'missing', word: 'imported' });
    expect(cacheFiles()).toHaveLength(2);
  });

  it('a corrupt cache is rejected, the bundle runs, and the cache is written again', async () => {
    await load();
    const [file] = cacheFiles();
    writeFileSync(file as string, Buffer.from('not a code cache at all'.repeat(100)));
    expect(await load()).toMatchObject({ cache: 'rejected', word: 'exported' });
    expect(await load()).toMatchObject({ cache: 'used', word: 'exported' });
  });

  it.skipIf(process.platform === 'win32')('a cache folder that others may write is not used', async () => {
    await load();
    const [file] = cacheFiles();
    chmodSync(join(file as string, '..'), 0o777);
    expect(await load()).toMatchObject({ cache: 'off', word: 'exported' });
  });

  it.skipIf(process.platform === 'win32')(
    'a cache file that others may write, or another user owns, is not used (checked on the open file)',
    async () => {
      await load();
      const [file] = cacheFiles() as [string];
      chmodSync(file, 0o666);
      expect(await load({ keep: false })).toMatchObject({ cache: 'missing', word: 'exported' });
      chmodSync(file, 0o600);
      expect(await load({ keep: false })).toMatchObject({ cache: 'used' });
      // Only root can give a file away; CI runs as root.
      if (process.getuid?.() === 0) {
        chownSync(file, 65534, 65534);
        expect(await load({ keep: false })).toMatchObject({ cache: 'missing', word: 'exported' });
      }
    },
  );

  it('a write that fails leaves no partial file behind', async () => {
    await load();
    const [file] = cacheFiles() as [string];
    // The rename onto the cache's name fails: a folder is there (EISDIR).
    rmSync(file);
    mkdirSync(file);
    expect(await load()).toMatchObject({ cache: 'missing', word: 'exported' });
    expect(readdirSync(join(file, '..'))).toEqual([basename(file)]);
  });

  it('a cache root that cannot be a folder only turns the cache off', async () => {
    writeFileSync(cacheRoot, 'a file where the folder should be');
    expect(await load()).toMatchObject({ cache: 'off', word: 'exported' });
  });
});

it('NODE_DISABLE_COMPILE_CACHE turns it off, even empty, as it does Node’s own', async () => {
  for (const value of ['1', '']) {
    expect(await load({ env: { NODE_DISABLE_COMPILE_CACHE: value } })).toMatchObject({
      cache: 'off',
      word: 'exported',
    });
    expect(existsSync(cacheRoot)).toBe(false);
  }
});

it('leaves the cache to Node where Node has one (>= 22.1), and keeps its own on Node 20', async () => {
  expect(await load()).toMatchObject({ cache: nodeHasItsOwn ? 'node' : 'missing', word: 'exported' });
});

describe.each(['node22', 'node24'] as const)('on %s (runtimes/, Node’s own compile cache)', (runtime) => {
  it('the loader leaves the cache to Node, and the bin starts, serves and keeps Node’s cache', async () => {
    const node = requireRuntime(runtime);
    expect(await load({ node })).toMatchObject({ cache: 'node', word: 'exported', later: 'function' });
    rmSync(cacheRoot, { recursive: true, force: true });
    await startAndStop(['--port', '0', '--json'], node);
    // Node's own layout: a folder per Node version and V8 flags, a file per module.
    const [folder] = readdirSync(cacheRoot);
    expect(folder).toMatch(new RegExp(`^v${runtime.slice(4)}\\.`));
    expect(cacheFiles().length).toBeGreaterThan(0);
    await startAndStop(['--port', '0', '--json'], node);
  }, 60_000);
});

/** Starts ocs-mock, reads its start-up line, checks a page and the YAML document, stops it with SIGTERM. */
async function startAndStop(args: string[], node = process.execPath): Promise<void> {
  const child = spawn(node, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: cacheEnvironment(),
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('close', (code) => reject(new Error(`ocs-mock exited (${code}) before starting`)));
  });
  const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
  const response = await fetch(`${url}/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  // The one module the bundle loads on demand (`yaml`), as require().
  const yaml = await fetch(`${url.replace(/\/v1$/, '')}/openapi.yaml`);
  expect(yaml.status).toBe(200);
  expect(await yaml.text()).toMatch(/^openapi: 3\.1\.0$/m);
  child.kill('SIGTERM');
  await exited;
}

describe.skipIf(nodeHasItsOwn)('the ocs-mock bin', () => {
  it('--version keeps no cache; a start that listened keeps one, and the next start uses it', async () => {
    await run(process.execPath, [bin, '--version'], { env: cacheEnvironment() });
    expect(cacheFiles()).toEqual([]);
    await startAndStop(['--port', '0', '--json']);
    const [file] = cacheFiles();
    expect(cacheFiles()).toHaveLength(1);
    const written = statSync(file as string);
    // Used, so not written again: the same file, untouched.
    await startAndStop(['--port', '0', '--json']);
    expect(cacheFiles()).toEqual([file]);
    expect(statSync(file as string)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });
});

it('the standalone mock’s bundle has no import(), which a cached script cannot run on Node 20', () => {
  const source = readFileSync(join(root, 'dist', 'server', 'cli.cjs'), 'utf8');
  expect(source).toContain('require("yaml")');
  expect(source.match(/(?<![\w$.])import\(/g)).toBeNull();
});
