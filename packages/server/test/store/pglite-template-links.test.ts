/**
 * The built template's databases that a new data directory hard-links (template0 and
 * template1, decision 0016) are never written by the server's PostgreSQL: after a store on
 * such a directory has written, vacuumed, checkpointed, closed and opened again, each of their
 * files is still the template's own inode with the template's bytes. Needs the build
 * (`npm run build -w @ocs/server` makes dist/pglite-template). The data directory is made
 * beside the template, on its file system, so that the links are made.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { openSqlStore } from '../../src/store/sql/index.ts';
import { findTemplate, manifestName, type TemplateManifest } from '../../src/store/sql/pglite-template.ts';

function builtTemplate(): { dir: string; neverWritten: string[] } {
  const dir = findTemplate();
  if (!dir) throw new Error('dist/pglite-template is missing: run `npm run build -w @ocs/server` first.');
  const manifest = JSON.parse(readFileSync(join(dir, manifestName), 'utf8')) as TemplateManifest;
  return { dir, neverWritten: manifest.neverWritten ?? [] };
}

/** Each file of `dir` (relative path) with its inode and the SHA-256 of its bytes. */
function files(dir: string): Map<string, { ino: number; sha256: string }> {
  const found = new Map<string, { ino: number; sha256: string }>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    found.set(name, { ino: statSync(path).ino, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') });
  }
  return found;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the hard-linked template databases', () => {
  it('are template0 and template1, and stay as the template has them while a store writes', async () => {
    const template = builtTemplate();
    expect(template.neverWritten).toHaveLength(2);
    const before = new Map(template.neverWritten.map((path) => [path, files(join(template.dir, path))]));
    const dataDir = mkdtempSync(join(dirname(template.dir), '.links-test-'));
    made.push(dataDir);

    const store = await openSqlStore({ dataDir });
    await seedDemoOrganization(store);
    await store.reclaimErased();
    await store.client.query('vacuum');
    await store.client.query('checkpoint');
    await store.close();
    const reopened = await openSqlStore({ dataDir });
    expect((await reopened.organizations.list()).length).toBe(1);
    await reopened.close();

    for (const [path, held] of before) {
      const now = files(join(template.dir, path));
      expect(now).toEqual(held);
      // Linked, not copied: the data directory's file is the template's inode.
      const linked = files(join(dataDir, path));
      expect([...linked.keys()].sort()).toEqual([...held.keys()].sort());
      for (const [name, file] of linked) expect(file).toEqual(held.get(name));
    }
  });
});
