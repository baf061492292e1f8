import { describe, expect, it } from 'vitest';
import type { Manifest } from '../workspaces.ts';
import { exportedTypes, missingFromPack } from './packed-files.ts';

/** A manifest shaped like @ocs/sdk's: conditions nested two deep, a data file, a bin. */
const manifest: Manifest = {
  name: '@example/pkg',
  bin: { tool: './bin/tool.js' },
  exports: {
    '.': {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './webhooks': {
      node: { import: { types: './dist/node.d.ts', default: './dist/node.js' } },
      default: { import: { types: './dist/web.d.ts', default: './dist/web.js' } },
    },
    './openapi.json': './src/openapi.json',
    './package.json': './package.json',
  },
};

const complete = [
  'package.json',
  'README.md',
  'LICENSE',
  'bin/tool.js',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/index.d.cts',
  'dist/index.cjs',
  'dist/node.d.ts',
  'dist/node.js',
  'dist/web.d.ts',
  'dist/web.js',
  'src/openapi.json',
];

describe('missingFromPack', () => {
  it('finds nothing missing in a complete tarball', () => {
    expect(missingFromPack(manifest, complete)).toEqual([]);
  });

  it('names each .d.ts a tarball packed mid-build lacks, with the conditions that lead to it', () => {
    const midBuild = complete.filter((file) => !file.endsWith('.d.ts') && !file.endsWith('.d.cts'));
    expect(missingFromPack(manifest, midBuild)).toEqual([
      'exports["."] (import > types) -> ./dist/index.d.ts is not in the tarball',
      'exports["."] (require > types) -> ./dist/index.d.cts is not in the tarball',
      'exports["./webhooks"] (node > import > types) -> ./dist/node.d.ts is not in the tarball',
      'exports["./webhooks"] (default > import > types) -> ./dist/web.d.ts is not in the tarball',
    ]);
  });

  it('wants README, LICENSE and the bins', () => {
    const bare = complete.filter((file) => !['README.md', 'LICENSE', 'bin/tool.js'].includes(file));
    expect(missingFromPack(manifest, bare)).toEqual([
      'README.md is not in the tarball',
      'LICENSE is not in the tarball',
      'bin ./bin/tool.js is not in the tarball',
    ]);
  });

  it('refuses an entry that loads JavaScript with no types at all', () => {
    const untyped: Manifest = { name: 'untyped', exports: { '.': { default: './dist/index.js' } } };
    expect(missingFromPack(untyped, ['package.json', 'README.md', 'LICENSE', 'dist/index.js'])).toEqual([
      'exports["."] points to JavaScript but to no .d.ts',
    ]);
  });

  it('reads a bare conditions object as the "." entry', () => {
    const sugar: Manifest = { name: 'sugar', exports: { types: './index.d.ts', default: './index.js' } };
    expect(missingFromPack(sugar, ['package.json', 'README.md', 'LICENSE', 'index.js'])).toEqual([
      'exports["."] (types) -> ./index.d.ts is not in the tarball',
    ]);
  });
});

it('exportedTypes lists the .d.ts of every entry once', () => {
  expect(exportedTypes(manifest)).toEqual(['dist/index.d.ts', 'dist/index.d.cts', 'dist/node.d.ts', 'dist/web.d.ts']);
});
