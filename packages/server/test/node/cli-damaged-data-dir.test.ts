/**
 * A data directory whose database files are damaged (a truncated or missing pg_control, an
 * emptied `base/`, a catalog's relation file emptied) is said in one line naming the
 * directory and what to do, exit code 1, never "internal error: Aborted()" nor a stack, and
 * never a hang (each run is bounded by its spawn's timeout). The directory is not made
 * again nor cleared, and neither ocs-server's lock nor PostgreSQL's postmaster.pid is left.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { oneLine, requireBuild, runCli, stopAll } from './processes.ts';

let scratch: string;
let pristine: string;
beforeAll(async () => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), 'ocs-damaged-'));
  pristine = join(scratch, 'pristine');
  const created = await runCli(['org', 'create', '--name', 'Keep me', '--data-dir', pristine]);
  expect(created.code).toBe(0);
}, 60_000);
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let cases = 0;
/** A copy of the pristine data directory, damaged by `damage`. */
function damagedCopy(damage: (dir: string) => void): string {
  const dir = join(scratch, `case-${++cases}`);
  cpSync(pristine, dir, { recursive: true });
  damage(dir);
  return dir;
}

/** Every file under `dir` with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = createHash('sha1').update(readFileSync(path)).digest('hex');
  }
  return files;
}

const damagedLine = (dir: string) =>
  new RegExp(
    `^ocs-server: the database files in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} are damaged \\(PostgreSQL: .+\\); ` +
      'restore the directory from a backup, or pass --data-dir with another directory \\(a new one starts an empty database\\)\\.$',
  );

function expectNothingLeft(dir: string): void {
  expect(existsSync(join(dir, 'ocs.lock'))).toBe(false);
  expect(existsSync(join(dir, 'ocs-admin.sock'))).toBe(false);
  expect(existsSync(join(dir, 'postmaster.pid'))).toBe(false);
}

it('a truncated global/pg_control: one line naming the directory, which is left byte for byte', async () => {
  const dir = damagedCopy((copy) => truncateSync(join(copy, 'global', 'pg_control'), 100));
  const before = snapshot(dir);

  const result = await runCli(['serve', '--port', '0', '--data-dir', dir], { timeoutMs: 30_000 });
  expect(result.code).toBe(1);
  const line = oneLine(result.stderr);
  expect(line).toMatch(damagedLine(dir));
  expect(line).toContain('could not read file "global/pg_control"');
  expect(line).not.toMatch(/internal error|Aborted/);
  expectNothingLeft(dir);
  expect(snapshot(dir)).toEqual(before);
}, 60_000);

// base/5 is the database `postgres` (PGlite's), 1247 its pg_type catalog.
const pgType = join('base', '5', '1247');

it.each([
  ['global/pg_control missing', (dir: string) => rmSync(join(dir, 'global', 'pg_control'))],
  [
    'an empty base/',
    (dir: string) => {
      for (const database of readdirSync(join(dir, 'base'))) rmSync(join(dir, 'base', database), { recursive: true });
    },
  ],
  [
    'a zero-byte catalog relation file (pg_type)',
    (dir: string) => {
      expect(statSync(join(dir, pgType)).size).toBeGreaterThan(0);
      truncateSync(join(dir, pgType), 0);
    },
  ],
] as const)(
  '%s: one line for serve and for an admin command, the tables left as they were',
  async (_, damage) => {
    const dir = damagedCopy(damage);
    // PostgreSQL's own start-up bookkeeping (pg_control's state, the relation cache files it
    // rebuilds) may change; the database's files may not.
    const tables = (files: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(files).filter(([path]) => path.startsWith('base') && !path.endsWith('pg_internal.init')),
      );
    const before = tables(snapshot(dir));

    for (const command of [
      ['serve', '--port', '0'],
      ['org', 'list'],
    ]) {
      const result = await runCli([...command, '--data-dir', dir], { timeoutMs: 30_000 });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(oneLine(result.stderr)).toMatch(damagedLine(dir));
      expectNothingLeft(dir);
    }
    expect(tables(snapshot(dir))).toEqual(before);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
  },
  90_000,
);
