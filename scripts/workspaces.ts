/** The monorepo's workspaces, read from the root manifest (for the scripts that visit each). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Manifest {
  name: string;
  version?: string;
  private?: boolean;
  workspaces?: string[];
  scripts?: Record<string, string>;
  files?: string[];
  exports?: unknown;
  bin?: string | Record<string, string>;
}

export const root = join(import.meta.dirname, '..');

export const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The workspace folders (relative to the root) in the root manifest's order, `examples/*` expanded. */
export function workspaceDirs(): string[] {
  return (readManifest(root).workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
}

/** The workspaces npm would publish: every one not marked private. */
export function publishedWorkspaces(): Array<{ dir: string; manifest: Manifest }> {
  return workspaceDirs()
    .map((dir) => ({ dir, manifest: readManifest(join(root, dir)) }))
    .filter(({ manifest }) => !manifest.private);
}
