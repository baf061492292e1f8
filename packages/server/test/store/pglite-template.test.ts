import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/sql/migrations/index.ts';
import {
  manifestName,
  migrationHash,
  pgliteVersion,
  seedDataDirFromTemplate,
  type TemplateManifest,
  templateIsSound,
} from '../../src/store/sql/pglite-template.ts';

const held = (count: number) =>
  [...migrations]
    .sort((a, b) => a.version - b.version)
    .slice(0, count)
    .map((migration) => ({ version: migration.version, sha256: migrationHash(migration) }));

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-template-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake template (files only: what the copy does, not PostgreSQL). */
function fakeTemplate(manifest: TemplateManifest): string {
  const dir = scratch();
  writeFileSync(join(dir, 'PG_VERSION'), '17\n');
  mkdirSync(join(dir, 'base', '1'), { recursive: true });
  writeFileSync(join(dir, 'base', '1', '1259'), 'catalog');
  writeFileSync(join(dir, manifestName), JSON.stringify(manifest));
  return dir;
}

describe('the PGlite template data directory', () => {
  it('is sound for the same PGlite and a prefix of the migrations, with the same SQL', () => {
    const version = pgliteVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(templateIsSound({ pglite: version, migrations: held(migrations.length) })).toBe(true);
    // Older template: the newer migrations are applied after the copy.
    expect(templateIsSound({ pglite: version, migrations: held(1) })).toBe(true);
  });

  it('is not used when another PGlite made it, or a migration it holds changed or is gone', () => {
    const version = pgliteVersion();
    expect(templateIsSound({ pglite: '0.0.1', migrations: held(1) })).toBe(false);
    const edited = held(2).map((entry, index) => (index === 1 ? { ...entry, sha256: 'f'.repeat(64) } : entry));
    expect(templateIsSound({ pglite: version, migrations: edited })).toBe(false);
    expect(templateIsSound({ pglite: version, migrations: [...held(1), { version: 999, sha256: 'x' }] })).toBe(false);
  });

  it('is copied into a directory without a database (the lock file may be there), never over one', () => {
    const template = fakeTemplate({ pglite: pgliteVersion(), migrations: held(1) });
    const dataDir = scratch();
    writeFileSync(join(dataDir, 'ocs.lock'), 'held');
    expect(seedDataDirFromTemplate(dataDir, template)).toBe(true);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(join(dataDir, 'base', '1', '1259'), 'utf8')).toBe('catalog');
    expect(existsSync(join(dataDir, manifestName))).toBe(false);
    expect(readFileSync(join(dataDir, 'ocs.lock'), 'utf8')).toBe('held');

    writeFileSync(join(dataDir, 'base', '1', '1259'), 'changed by the database');
    expect(seedDataDirFromTemplate(dataDir, template)).toBe(false);
    expect(readFileSync(join(dataDir, 'base', '1', '1259'), 'utf8')).toBe('changed by the database');
  });

  it('hard-links the databases it lists as never written and copies the others', () => {
    const template = fakeTemplate({ pglite: pgliteVersion(), migrations: held(1), neverWritten: ['base/1'] });
    mkdirSync(join(template, 'base', '5'));
    writeFileSync(join(template, 'base', '5', '1259'), 'served database');
    const dataDir = scratch();
    expect(seedDataDirFromTemplate(dataDir, template)).toBe(true);
    // One inode for the template's file and the data directory's: a link, not a copy.
    expect(statSync(join(dataDir, 'base', '1', '1259')).ino).toBe(statSync(join(template, 'base', '1', '1259')).ino);
    expect(statSync(join(dataDir, 'base', '5', '1259')).ino).not.toBe(
      statSync(join(template, 'base', '5', '1259')).ino,
    );
    expect(readFileSync(join(dataDir, 'base', '5', '1259'), 'utf8')).toBe('served database');
    // What the served database writes stays in the data directory.
    writeFileSync(join(dataDir, 'base', '5', '1259'), 'changed by the database');
    expect(readFileSync(join(template, 'base', '5', '1259'), 'utf8')).toBe('served database');
  });

  it('is not copied when unsound or without a manifest', () => {
    const template = fakeTemplate({ pglite: '0.0.1', migrations: held(1) });
    const dataDir = scratch();
    expect(seedDataDirFromTemplate(dataDir, template)).toBe(false);
    // A directory without a manifest (undefined would look for the built template).
    expect(seedDataDirFromTemplate(dataDir, scratch())).toBe(false);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
  });
});
