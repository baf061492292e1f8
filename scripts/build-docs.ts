/**
 * `npm run docs`, first step: the API reference page (the one `/docs` serves, Redoc over the
 * served OpenAPI document) as one static file, `dist/docs/index.html`, that works opened
 * from disk with no network. The SDK's reference (TypeDoc, `typedoc.json`) goes beside it
 * in `dist/docs/sdk/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { staticReferencePage } from '../packages/server/src/node/docs-renderer.ts';

const out = join(import.meta.dirname, '..', 'dist', 'docs');
mkdirSync(out, { recursive: true });
const file = join(out, 'index.html');
writeFileSync(file, await staticReferencePage());
console.log(`API reference: ${file}`);
