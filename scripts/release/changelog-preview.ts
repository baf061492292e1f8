/**
 * What `changeset version` would write, without consuming the pending changesets: it runs on
 * a throwaway copy of what it reads (the root manifest, `.changeset/`, each workspace's
 * manifest and CHANGELOG) in a temporary directory, and the new versions and CHANGELOG
 * sections are read back from there. The repository is never written.
 *
 * The copy has no git history, so the entries lack the commit hash that the default
 * changelog writer puts before each on the real repository; the text is the same.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readManifest, root, workspaceDirs } from '../workspaces.ts';

export interface ChangelogPreview {
  name: string;
  oldVersion: string;
  newVersion: string;
  /** The section `changeset version` would add on top of the CHANGELOG. */
  section: string;
  /** Its entries, one string each (a changeset's paragraph). */
  entries: string[];
}

const changesetBin = () => join(createRequire(import.meta.url).resolve('@changesets/cli/package.json'), '..', 'bin.js');

/** The new CHANGELOG's text above the one there was (the whole file when there was none). */
function addedSection(before: string, after: string): string {
  const tail = before.replace(/^# .*\n+/, '');
  const added = tail && after.endsWith(tail) ? after.slice(0, after.length - tail.length) : after;
  return added.replace(/^# .*\n+/, '').trim();
}

/** The list items of a CHANGELOG section, each on one line (headings end an item). */
function sectionEntries(section: string): string[] {
  const entries: string[][] = [];
  let current: string[] | undefined;
  for (const line of section.split('\n')) {
    if (line.startsWith('- ')) entries.push((current = [line.slice(2)]));
    else if (line.startsWith('#')) current = undefined;
    else if (current && line.trim()) current.push(line.trim());
  }
  return entries.map((lines) => lines.join(' ').replace(/\s+/g, ' ').trim());
}

export function previewChangelogs(): ChangelogPreview[] {
  const copy = mkdtempSync(join(tmpdir(), 'ocs-release-dry-run-'));
  try {
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    cpSync(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
    const dirs = workspaceDirs();
    for (const dir of dirs) {
      mkdirSync(join(copy, dir), { recursive: true });
      for (const file of ['package.json', 'CHANGELOG.md']) {
        if (existsSync(join(root, dir, file))) cpSync(join(root, dir, file), join(copy, dir, file));
      }
    }
    execFileSync(process.execPath, [changesetBin(), 'version'], { cwd: copy, stdio: 'pipe', encoding: 'utf8' });
    return dirs.flatMap((dir) => {
      const before = readManifest(join(root, dir));
      const after = readManifest(join(copy, dir));
      if (before.version === after.version) return [];
      const read = (base: string) =>
        existsSync(join(base, dir, 'CHANGELOG.md')) ? readFileSync(join(base, dir, 'CHANGELOG.md'), 'utf8') : '';
      const section = addedSection(read(root), read(copy));
      return [
        {
          name: before.name,
          oldVersion: before.version ?? '',
          newVersion: after.version ?? '',
          section,
          entries: sectionEntries(section),
        },
      ];
    });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
