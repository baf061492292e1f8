/**
 * PGlite's WebAssembly runs on V8's baseline compiler (Liftoff) only: no optimizing
 * (TurboFan) tier-up. Measured on the server (decision 0016): tier-up compiled PostgreSQL's
 * hot functions with TurboFan in background threads while the database started and answered
 * its first queries, which cost about a third of the start's CPU and left some 50 MB of
 * compiler memory and optimized code resident in an idle server; a primary-key select ran
 * no slower without it (much of its time is outside WebAssembly: the wire protocol, copies
 * in and out of the instance).
 *
 * A V8 flag for the whole process, set before PGlite compiles its module (V8 reads it per
 * compilation, so setting it at run time works). Besides PGlite only Node's `fetch` (undici's
 * HTTP parser) runs WebAssembly, which the server does not use to deliver.
 */
import { setFlagsFromString } from 'node:v8';

let set = false;

export function useBaselineWasmOnly(): void {
  if (set) return;
  setFlagsFromString('--liftoff-only');
  set = true;
}
