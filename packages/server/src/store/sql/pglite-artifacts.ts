/**
 * PGlite's two large files, its WebAssembly module (about 9 MB) and its file-system bundle
 * (about 6 MB), read and compiled ahead: `ocs-server` starts this before it loads the rest of
 * the server's modules, so the reads and V8's compilation (on its own threads) overlap the
 * module loading instead of following it (decision 0016). `createPgliteClient` takes what was
 * prefetched; without a prefetch, or when it failed, PGlite reads the files itself.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { useBaselineWasmOnly } from './pglite-wasm-tiering.ts';

export interface PgliteArtifacts {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let prefetched: Promise<PgliteArtifacts> | undefined;

async function load(): Promise<PgliteArtifacts> {
  const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const [wasm, bundle] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
  useBaselineWasmOnly();
  const whole = bundle.byteOffset === 0 && bundle.byteLength === bundle.buffer.byteLength;
  const buffer = whole ? bundle.buffer : bundle.buffer.slice(bundle.byteOffset, bundle.byteOffset + bundle.byteLength);
  // PGlite only calls `arrayBuffer()` on the bundle: handing it the file's own buffer spares
  // the two copies a Blob would make (6 MB each, resident until a full collection).
  const fsBundle = { arrayBuffer: () => Promise.resolve(buffer) } as unknown as Blob;
  return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle };
}

export function prefetchPgliteArtifacts(): void {
  prefetched ??= load();
  prefetched.catch(() => undefined);
  // Its JavaScript too: loaded meanwhile, it is in the module cache when the store opens.
  import('@electric-sql/pglite').catch(() => undefined);
}

/** What was prefetched, once (the next PGlite of the process reads the files itself, as PGlite caches its module anyway). */
export async function takePgliteArtifacts(): Promise<PgliteArtifacts | undefined> {
  const pending = prefetched;
  prefetched = undefined;
  try {
    return await pending;
  } catch {
    return undefined;
  }
}
