/**
 * A data directory is never written over: an empty `--data-dir` or `--database-url` is a
 * mistake (not the working directory, not PostgreSQL instead), an empty `OCS_DATA_DIR` is not
 * set, and a new database is made only in a new or empty directory. A directory of other
 * files, or a data directory that lost its PG_VERSION, is refused in one line, untouched.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oneLine, requireBuild, runCli, stopAll } from './processes.ts';

beforeAll(requireBuild);

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ocs-datadir-'));
});
afterEach(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

describe('empty values', () => {
  it.each([
    [['org', 'list', '--data-dir='], /--data-dir needs a value/],
    [['org', 'list', '--data-dir', ''], /--data-dir needs a value/],
    [['serve', '--port', '0', '--data-dir='], /--data-dir needs a value/],
    [['org', 'list', '--database-url='], /--database-url needs a value/],
  ])('%j: one line, exit code 2, nothing written', async (args, message) => {
    // With DATABASE_URL set, an empty --data-dir must not mean PostgreSQL either.
    const result = await runCli(args, {
      cwd: scratch,
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(message);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('OCS_DATA_DIR= counts as not set: the default directory, not the working one', async () => {
    const result = await runCli(['org', 'list'], { cwd: scratch, env: { OCS_DATA_DIR: '' } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(scratch)).toEqual(['.data']);
    expect(readdirSync(join(scratch, '.data', 'pglite'))).toContain('PG_VERSION');
  });
});

describe('a directory that holds no database', () => {
  it('with files of its own: refused, untouched', async () => {
    writeFileSync(join(scratch, 'readme.txt'), 'mine');
    for (const args of [
      ['org', 'list'],
      ['serve', '--port', '0'],
    ]) {
      const result = await runCli([...args, '--data-dir', scratch]);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toBe(
        `ocs-server: ${scratch} is not an OCS data directory: it holds files (readme.txt) but no database (no PG_VERSION). ` +
          'If it is a data directory, it is damaged: restore it from a backup; otherwise pass --data-dir with a new or empty directory.',
      );
      expect(readdirSync(scratch)).toEqual(['readme.txt']);
    }
  });

  it('a data directory that lost PG_VERSION: refused, its data left as it is', { timeout: 60_000 }, async () => {
    const dataDir = join(scratch, 'data');
    const created = await runCli(['org', 'create', '--name', 'Keep me', '--data-dir', dataDir]);
    expect(created.code).toBe(0);
    const version = readFileSync(join(dataDir, 'PG_VERSION'));
    unlinkSync(join(dataDir, 'PG_VERSION'));
    const before = readdirSync(dataDir).sort();

    const listed = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');
    expect(oneLine(listed.stderr)).toMatch(/is not an OCS data directory: .*no PG_VERSION.*damaged/);
    expect(readdirSync(dataDir).sort()).toEqual(before);

    // Put back, the data is all there.
    writeFileSync(join(dataDir, 'PG_VERSION'), version);
    const again = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(again.stdout).toContain('Keep me');
  });

  it('a first start cut short (its marker still there) is made again', { timeout: 60_000 }, async () => {
    const dataDir = join(scratch, 'data');
    mkdirSync(join(dataDir, 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'ocs-new-database'), '');
    const listed = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(listed).toMatchObject({ code: 0, stdout: 'No organizations.\n', stderr: '' });
    expect(readdirSync(dataDir)).not.toContain('ocs-new-database');
  });
});
