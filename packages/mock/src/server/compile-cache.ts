/**
 * Loads a CommonJS bundle (the standalone mock's, dist/server/cli.cjs) with V8's code cache, so
 * that every start after the first skips compiling the bundle and the functions its start runs:
 * a fifth of `npx ocs-mock`'s start (docs/decisions/0022-mock-compile-cache.md).
 *
 * Node >= 22.1 has this built in (`module.enableCompileCache`), and it is used there. Node 20
 * has no compile cache, so the bundle runs as a `vm.Script` given the cached data, as Node's
 * own cache does for CommonJS. The cache sits where Node's would: `$NODE_COMPILE_CACHE`, else
 * `<tmpdir>/node-compile-cache`, in a folder of ours that only this user may write (a cache
 * is code that will run). `NODE_DISABLE_COMPILE_CACHE` (set at all) turns it off, as it does
 * Node's.
 * Reading or writing the cache never fails a start: at worst the start is slower.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { makeDirectories } from '@ocs/server/make-directories';
import { isAscii } from 'node:buffer';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

export interface CompileCached {
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>;
  /**
   * What the cache did: `used` (V8 accepted it), `missing`, `rejected` (V8 refused it), `off`
   * (turned off, or no folder to keep it in), or `node` (Node's own cache, on Node >= 22.1).
   */
  readonly cache: 'used' | 'missing' | 'rejected' | 'off' | 'node';
  /**
   * Writes the code cache when the process exits, unless one was used: called once the program
   * has run its start, so that the functions the start compiled are in it, not only the
   * bundle's top level (a `--help` run keeps none).
   */
  keep(): void;
}

/**
 * The bundle at `file` (a path or a `file:` URL), run as CommonJS with the code cache. The
 * bundle must not use `import()`: `require()` instead.
 */
export function loadWithCompileCache(file: string | URL): CompileCached {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  // Set at all, even empty, turns it off: as Node reads it.
  const disabled = process.env.NODE_DISABLE_COMPILE_CACHE !== undefined;
  const enableCompileCache = (nodeModule as { enableCompileCache?: () => { status: number } }).enableCompileCache;
  if (disabled || enableCompileCache) {
    // Node's own cache (it honours NODE_COMPILE_CACHE and writes at exit), or none. Its
    // statuses: 1 enabled, 2 already enabled, 0 failed, 3 disabled.
    const status = disabled ? undefined : enableCompileCache?.().status;
    const exports = nodeModule.createRequire(path)(path) as Record<string, unknown>;
    return { exports, cache: status === 1 || status === 2 ? 'node' : 'off', keep: () => undefined };
  }
  return runScript(path);
}

function runScript(path: string): CompileCached {
  // Read as bytes: their checksum is 15 times cheaper than the string's, and the bundle, which
  // is ASCII, decodes as Latin-1 in half the time of UTF-8 to the same string (9-10 ms of the
  // standalone mock's start, measured 2026-11-28).
  const bytes = readFileSync(path);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cacheFile = cacheFileFor(path, bytes);
  const cachedData = cacheFile === undefined ? undefined : readOwnCache(cacheFile);
  // Node's CommonJS wrapper, on the bundle's first line (its line numbers stay right).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
    cachedData,
    // No `importModuleDynamically`: on Node 20 a script whose cached data was used has no
    // dynamic import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the bundle has none (it is
    // built with import() as require()), and one that had would fail on its first start, not
    // only once cached.
  });
  const cache =
    cacheFile === undefined
      ? 'off'
      : cachedData === undefined
        ? 'missing'
        : script.cachedDataRejected
          ? 'rejected'
          : 'used';
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, nodeModule.createRequire(path), module, path, dirname(path));
  let kept = false;
  return {
    get exports() {
      return module.exports;
    },
    cache,
    keep() {
      if (kept || cacheFile === undefined || cache === 'used') return;
      kept = true;
      process.once('exit', () => writeAtomically(cacheFile, () => script.createCachedData()));
    },
  };
}

/**
 * The cache file of this bundle, Node and architecture, in a folder of this user's; undefined
 * when there is none to use. The name holds a checksum of the source: V8 checks its own version
 * and flags, but of the source only its length.
 */
function cacheFileFor(path: string, source: Buffer): string | undefined {
  try {
    const root = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
    const folder = join(root, `ocs-mock-${process.getuid?.() ?? 'user'}`);
    // Not `recursive`: Node 20's never returns for a missing path under /proc
    // (NODE_COMPILE_CACHE=/proc/x hung the start).
    makeDirectories(folder, 0o700);
    const stat = lstatSync(folder);
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) return undefined;
    if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) return undefined;
    const checksum = crc32(source).toString(16).padStart(8, '0');
    return join(folder, `${basename(path)}-${source.length}-${checksum}-${process.version}-${process.arch}.cache`);
  } catch {
    return undefined;
  }
}

/**
 * The cache file's bytes if this user wrote it: checked on the open file, since the folder's
 * own check (`cacheFileFor`) cannot stop another user who owns a parent folder from swapping
 * the folder between that check and this read. Anything else is no cache.
 */
function readOwnCache(file: string): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(descriptor);
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid())) return undefined;
    if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) return undefined;
    return readFileSync(descriptor);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Written under another name, then renamed: a start reading it never sees half a file. The
 * new name must not exist (`wx`), so that a link put there by someone else is never written
 * through. A write that fails after creating that name removes it, so that a full disk
 * leaves nothing behind.
 */
function writeAtomically(file: string, data: () => Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  let created = false;
  try {
    const descriptor = openSync(partial, 'wx', 0o600);
    created = true;
    try {
      writeFileSync(descriptor, data());
    } finally {
      closeSync(descriptor);
    }
    renameSync(partial, file);
    created = false;
  } catch {
    // A read-only or full disk, or that name taken: the next start compiles again.
    if (created) rmSync(partial, { force: true });
  }
}
