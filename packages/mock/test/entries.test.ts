/**
 * The package as integrators install it: the Node and browser entries fail loudly in the
 * wrong environment, ESM and CJS both load, the private @ocs/server is bundled in (never
 * imported), and publint and `attw --pack` find no problem. Runs on the build (the test
 * script builds first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

beforeAll(() => {
  if (!existsSync(join(pkgDir, 'dist', 'node', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/mock` (its test script builds first).');
  }
});

/** Runs a snippet in a fresh Node process inside the package (so `@ocs/mock` self-resolves). */
function node(args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd: pkgDir, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

describe('wrong environment', () => {
  it('@ocs/mock/browser in Node throws, saying to use @ocs/mock/node', async () => {
    await expect(import('@ocs/mock/browser')).rejects.toThrow(
      /@ocs\/mock\/browser was imported in Node\. In Node .* import \{ createOcsMock \} from "@ocs\/mock\/node"/,
    );
    const required = node(['-e', "require('@ocs/mock/browser')"]);
    expect(required.status).not.toBe(0);
    expect(required.stderr).toMatch(/@ocs\/mock\/browser was imported in Node/);
  });

  it('@ocs/mock/node under the browser condition throws, saying to use @ocs/mock/browser', () => {
    const result = node(['--conditions=browser', '--input-type=module', '-e', "await import('@ocs/mock/node')"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/@ocs\/mock\/node was imported in a browser bundle\. In a browser, import/);
  });
});

describe('entries', () => {
  it('loads as ESM and as CommonJS in Node', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "const m = await import('@ocs/mock/node'); console.log(typeof m.createOcsMock, typeof m.startMockServer)",
    ]);
    expect(esm).toMatchObject({ status: 0, stdout: 'function function' });
    const cjs = node([
      '-e',
      "const m = require('@ocs/mock/node'); m.createOcsMock({ seed: 1 }).then((mock) => console.log(mock.baseUrl))",
    ]);
    expect(cjs).toMatchObject({ status: 0, stdout: 'https://api.ocs.test/v1' });
  });

  it('bundles the private @ocs/server: no built file imports it', () => {
    const files = readdirSync(join(pkgDir, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.(c?js|d\.c?ts)$/.test(file),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(readFileSync(join(pkgDir, 'dist', file), 'utf8'), file).not.toMatch(/["']@ocs\/server["'/]/);
    }
  });

  it('declares msw as a peer dependency, and every import of the build as a dependency', () => {
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    expect(manifest.peerDependencies.msw).toMatch(/^\^2\./);
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const imported = new Set<string>();
    for (const file of readdirSync(join(pkgDir, 'dist'), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(c?js)$/.test(file)) continue;
      const text = readFileSync(join(pkgDir, 'dist', file), 'utf8');
      // Import statements start a line in esbuild's output; require() and import() are calls.
      const patterns = [
        /^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";/gm,
        /^import\s*"([^"]+)";/gm,
        // (not inside a string: Ajv's bundled code generator writes `'require("ajv/...")'`
        // and `` `require("ajv/...")` `` into the validators it compiles, never runs them)
        /(?<![`'\w])(?:require|import)\("([^"]+)"\)/g,
      ];
      for (const pattern of patterns) {
        for (const [, specifier = ''] of text.matchAll(pattern)) {
          if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
          imported.add(
            specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/'),
          );
        }
      }
    }
    // msw stays external (the test's MSW); Hono and its Node adapter are bundled with the engine.
    expect([...imported]).toEqual(expect.arrayContaining(['msw', '@ocs/sdk']));
    expect([...imported]).not.toEqual(expect.arrayContaining(['hono']));
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });
});

describe('publishing', () => {
  it('publint: no error, warning or suggestion', async () => {
    const { messages, pkg } = await publint({ pkgDir, level: 'suggestion', pack: 'npm' });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  }, 60_000);

  it('attw --pack: every entry resolves to types and JavaScript, for ESM and CJS', () => {
    const bin = join(require.resolve('@arethetypeswrong/cli/package.json'), '..', 'dist', 'index.js');
    try {
      execFileSync(
        process.execPath,
        [bin, '--pack', pkgDir, '--profile', 'node16', '--format', 'table', '--exclude-entrypoints', './prism'],
        // Its `npm pack` skips the `prepack` build (which empties dist/ first): the suite runs on
        // the build made before it.
        {
          encoding: 'utf8',
          stdio: 'pipe',
          env: { ...process.env, FORCE_COLOR: '0', npm_config_ignore_scripts: 'true' },
        },
      );
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string };
      expect.fail(`attw found problems:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
    }
  }, 180_000);
});
