/**
 * The install budget (issue 13): `npm install` of the packed @ocs/sdk and @ocs/mock with msw
 * into an empty project brings at most 120 packages and 60 MB; Prism and Redoc (optional
 * peers) are not among them, and `@ocs/mock/prism` without Prism fails with one line naming
 * what to install. Needs the npm registry (msw and the dependencies come from it) and the
 * build (the test script builds).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prismMissing } from '../src/prism/start-prism.ts';
import { install, type InstallSize, pack } from './support/install-size.ts';

const packages = join(import.meta.dirname, '..', '..');
const budget = { packages: 120, megabytes: 60 };
const project = mkdtempSync(join(tmpdir(), 'ocs-install-budget-'));
let size: InstallSize;

function manifest(name: 'sdk' | 'mock') {
  return JSON.parse(readFileSync(join(packages, name, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
}

beforeAll(() => {
  for (const name of ['sdk', 'mock'] as const) {
    if (!existsSync(join(packages, name, 'dist'))) {
      throw new Error(`packages/${name}/dist is missing: run \`npm run build -w @ocs/${name}\` first.`);
    }
  }
  const tarballs = [pack(join(packages, 'sdk'), project), pack(join(packages, 'mock'), project)];
  // The msw the repository tests with, so the figure moves only when our packages do.
  size = install(project, [...tarballs, `msw@${manifest('mock').devDependencies.msw?.replace(/^\^/, '')}`]);
  console.log(
    `install of @ocs/sdk + @ocs/mock + msw: ${size.packages} packages, ${(size.bytes / 1e6).toFixed(1)} MB (budget ${budget.packages} packages, ${budget.megabytes} MB)`,
  );
}, 300_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

it(`stays within ${budget.packages} packages and ${budget.megabytes} MB`, () => {
  expect(size.packages).toBeGreaterThan(0);
  expect(size.packages).toBeLessThanOrEqual(budget.packages);
  expect(size.bytes / 1e6).toBeLessThanOrEqual(budget.megabytes);
});

it('installs neither Prism nor Redoc (optional peers) nor a copy of the engine per entry', () => {
  expect(existsSync(join(project, 'node_modules', '@stoplight', 'prism-cli'))).toBe(false);
  // /docs's renderer is the reference server's dependency; the mock only uses one installed beside it.
  expect(existsSync(join(project, 'node_modules', 'redoc'))).toBe(false);
  const installed = join(project, 'node_modules', '@ocs', 'mock');
  expect(existsSync(join(installed, 'dist', 'node', 'index.js'))).toBe(true);
  // The CommonJS entries load the ES module: one line each, not a second engine.
  for (const entry of ['node', 'browser']) {
    expect(readFileSync(join(installed, 'dist', entry, 'index.cjs'), 'utf8')).toMatch(/require\('\.\/index\.js'\)/);
  }
});

it('@ocs/mock/prism without Prism fails with one line naming what to install', () => {
  const range = manifest('mock').peerDependencies['@stoplight/prism-cli'];
  expect(prismMissing).toContain(`npm install --save-dev @stoplight/prism-cli@${range}`);
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { startPrism } = await import('@ocs/mock/prism'); await startPrism({ port: 0 }).catch((error) => { console.error(error.message); process.exit(1); });",
    ],
    { cwd: project, encoding: 'utf8' },
  );
  expect(result.status).toBe(1);
  expect(result.stderr.trim()).toBe(prismMissing);
});

it('works from the install: require() and import of @ocs/mock/node answer', () => {
  const script =
    "const { createOcsMock } = require('@ocs/mock/node'); createOcsMock().then((mock) => mock.fetch(new Request(mock.baseUrl + '/campaigns', { headers: { Authorization: 'Bearer ' + mock.apiKey } }))).then((r) => console.log(r.status))";
  const result = spawnSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe('200');
});
