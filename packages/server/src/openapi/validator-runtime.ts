/**
 * What the precompiled validators (src/generated/validators.ts) call at run time: Ajv's
 * helper for string lengths and the `format` checks (ajv-formats' full mode, three of them
 * narrowed in formats.ts). Only these small modules load, never Ajv's compiler. When the
 * document needs another helper (deep equality for a `uniqueItems`...), `npm run generate`
 * says so and it is added here.
 *
 * Ajv's helpers are CommonJS modules with `exports.default`: depending on who loads them
 * (Node, esbuild, a browser bundler), a default import gives the function or the exports
 * object, hence the unwrapping.
 */
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import type { ErrorObject } from 'ajv/dist/2020.js';

/** A precompiled validator: Ajv's `ValidateFunction` contract (errors on the function). */
export type PrecompiledValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function unwrap<T>(module: T | { default: T }): T {
  const inner = (module as { default?: T }).default;
  return inner ?? (module as T);
}

export const ucs2length = unwrap(ucs2lengthModule) as (text: string) => number;
export { ocsFormats } from './formats.ts';
