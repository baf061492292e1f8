/**
 * What installing the packed packages brings into a project: `npm pack` of @ocs/sdk and
 * @ocs/mock (their current build: the `prepack` build is skipped), then `npm install` of the
 * tarballs and msw into an empty project, as an integrator installs them. Measured as npm
 * lays it out: every package directory under node_modules (nested ones included) and the
 * bytes of every file there.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface InstallSize {
  packages: number;
  bytes: number;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(args: string[], cwd: string): string {
  return execFileSync(npm, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // No lifecycle scripts: packing must not rebuild (nor empty) the dist/ that other tests read.
    env: { ...process.env, npm_config_ignore_scripts: 'true', npm_config_update_notifier: 'false' },
  });
}

/** Packs the package in `packageDir` into `destination`; the tarball's path. */
export function pack(packageDir: string, destination: string): string {
  const [result] = JSON.parse(run(['pack', '--json', '--pack-destination', destination], packageDir)) as Array<{
    filename: string;
  }>;
  if (!result) throw new Error(`npm pack in ${packageDir} gave no tarball`);
  return join(destination, result.filename);
}

/** Installs `specs` (tarball paths, `name@range`) into a new project in `projectDir`. */
export function install(projectDir: string, specs: string[]): InstallSize {
  writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'integrator', private: true }));
  run(['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error', ...specs], projectDir);
  return measure(join(projectDir, 'node_modules'));
}

/** Package directories and file bytes under a node_modules folder. */
export function measure(nodeModules: string): InstallSize {
  const size: InstallSize = { packages: 0, bytes: 0 };
  const walkFiles = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walkFiles(path);
      else if (entry.isFile()) size.bytes += lstatSync(path).size;
    }
  };
  const walkPackages = (modules: string) => {
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(modules, entry.name);
      if (entry.name.startsWith('@')) {
        walkPackages(path);
        continue;
      }
      if (isPackage(path)) size.packages++;
    }
  };
  walkFiles(nodeModules);
  walkPackages(nodeModules);
  // Nested node_modules (a version that could not be hoisted) hold packages too.
  for (const nested of nestedModules(nodeModules)) walkPackages(nested);
  return size;
}

function isPackage(dir: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'string';
  } catch {
    return false;
  }
}

function nestedModules(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules') found.push(path);
    nestedModules(path, found);
  }
  return found;
}
