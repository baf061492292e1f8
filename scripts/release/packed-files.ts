/**
 * What a package's tarball must hold, read from its manifest: every file an `exports` entry
 * points to (the JavaScript and its `.d.ts`/`.d.cts` types), every `bin`, the README and the
 * LICENSE. A tarball packed while a build was emptying `dist/` lacks some of them: this is
 * the check that catches it before a publish.
 */
import type { Manifest } from '../workspaces.ts';

/** The files an entry's conditions point to, with the condition path that led there. */
function targets(value: unknown, conditions: string[] = []): Array<{ file: string; conditions: string[] }> {
  if (typeof value === 'string') return [{ file: value, conditions }];
  if (Array.isArray(value)) return value.flatMap((item) => targets(item, conditions));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([condition, inner]) => targets(inner, [...conditions, condition]));
  }
  return [];
}

const isModule = (file: string) => /\.[cm]?js$/.test(file);
const isTypes = (file: string) => /\.d\.[cm]?ts$/.test(file);
const normalize = (file: string) => file.replace(/^\.\//, '');

/** The `exports` map as entries: `'.'` and its subpaths (a bare string or conditions = `'.'`). */
function exportEntries(exportsField: unknown): Array<[string, unknown]> {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return [['.', exportsField]];
  if (!exportsField || typeof exportsField !== 'object') return [];
  const keys = Object.keys(exportsField);
  if (keys.length > 0 && keys.every((key) => !key.startsWith('.'))) return [['.', exportsField]];
  return Object.entries(exportsField);
}

/** Problems of a packed file list, one sentence each; empty when the tarball is complete. */
export function missingFromPack(manifest: Manifest, packed: readonly string[]): string[] {
  const files = new Set(packed);
  const problems: string[] = [];
  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!files.has(required)) problems.push(`${required} is not in the tarball`);
  }
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  for (const bin of bins) {
    if (!files.has(normalize(bin))) problems.push(`bin ${bin} is not in the tarball`);
  }
  for (const [entry, value] of exportEntries(manifest.exports)) {
    const entryTargets = targets(value);
    for (const { file, conditions } of entryTargets) {
      if (!files.has(normalize(file))) {
        problems.push(`exports["${entry}"] (${conditions.join(' > ') || 'default'}) -> ${file} is not in the tarball`);
      }
    }
    // An entry that loads JavaScript must bring its types, or TypeScript users get `any`.
    if (entryTargets.some(({ file }) => isModule(file)) && !entryTargets.some(({ file }) => isTypes(file))) {
      problems.push(`exports["${entry}"] points to JavaScript but to no .d.ts`);
    }
  }
  return problems;
}

/** The `.d.ts`/`.d.cts` files the `exports` map names (to report how many were checked). */
export function exportedTypes(manifest: Manifest): string[] {
  const all = exportEntries(manifest.exports).flatMap(([, value]) => targets(value).map(({ file }) => file));
  return [...new Set(all.filter(isTypes).map(normalize))];
}
