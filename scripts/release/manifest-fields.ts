/**
 * What every published manifest must say for npm's page and for installers: the license
 * (MIT, with its LICENSE file), where the code lives (`repository` with the package's
 * `directory`), `homepage`, `bugs`, and the root's `engines`, so that no package claims a
 * Node.js the monorepo does not test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../workspaces.ts';

export interface PublishedManifest extends Manifest {
  license?: string;
  repository?: { type?: string; url?: string; directory?: string } | string;
  homepage?: string;
  bugs?: { url?: string } | string;
  engines?: Record<string, string>;
}

/** Problems of one published package's manifest, one sentence each. */
export function manifestProblems(
  dir: string,
  pkgDir: string,
  manifest: PublishedManifest,
  rootManifest: PublishedManifest,
): string[] {
  const problems: string[] = [];
  if (manifest.license !== 'MIT') problems.push(`license is ${manifest.license ?? 'missing'}, not MIT`);
  if (!existsSync(join(pkgDir, 'LICENSE'))) problems.push('no LICENSE file');
  const repository = typeof manifest.repository === 'string' ? { url: manifest.repository } : manifest.repository;
  if (!repository?.url) problems.push('no repository');
  else if (repository.directory !== dir) problems.push(`repository.directory is not "${dir}"`);
  if (!manifest.homepage) problems.push('no homepage');
  if (!(typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url)) problems.push('no bugs URL');
  const engines = JSON.stringify(manifest.engines ?? {});
  const rootEngines = JSON.stringify(rootManifest.engines ?? {});
  if (engines !== rootEngines) problems.push(`engines ${engines} differ from the root's ${rootEngines}`);
  if (!manifest.scripts?.prepack) problems.push('no prepack script (a pack would not build)');
  return problems;
}
