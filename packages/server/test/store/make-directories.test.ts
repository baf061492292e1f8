/**
 * `makeDirectories` (`mkdir -p` one level at a time): what `recursive` does, and an error
 * instead of Node 20's endless loop for a missing path under /proc.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeDirectories } from '../../src/store/sql/make-directories.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-make-directories-'));
  made.push(dir);
  return dir;
}

it('makes the directory and its missing parents, and is fine when they exist', () => {
  const deep = join(scratch(), 'a', 'b', 'c');
  makeDirectories(deep);
  expect(statSync(deep).isDirectory()).toBe(true);
  makeDirectories(deep);
  makeDirectories(join(deep, '..', 'b2'));
  expect(statSync(join(deep, '..', 'b2')).isDirectory()).toBe(true);
});

it('throws what mkdir said for a file in the way: EEXIST in its place, ENOTDIR above it', () => {
  const file = join(scratch(), 'file');
  writeFileSync(file, '');
  expect(() => makeDirectories(file)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  expect(() => makeDirectories(join(file, 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
});

it.skipIf(process.platform !== 'linux')('throws ENOENT at once for a missing path under /proc', () => {
  expect(() => makeDirectories('/proc/ocs-no-such-dir/data')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
});

it('throws ENAMETOOLONG for a path the system cannot take, and makes none of its levels', () => {
  const base = scratch();
  const tooLong = join(base, ...Array.from({ length: 3000 }, () => 'b'));
  expect(() => makeDirectories(tooLong)).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }));
  expect(readdirSync(base)).toEqual([]);
});
