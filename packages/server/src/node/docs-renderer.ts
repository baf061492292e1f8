/**
 * `/docs` on the reference server: Redoc, a dependency of @ocs/server, read from its package
 * files (never a CDN), so the reference works with no network. `npm run docs` builds the
 * same page as one file, the renderer and the served document inlined.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type DocsRouteOptions, rendererModule } from '../docs/docs-route.ts';
import { referencePage } from '../docs/reference-page.ts';
import { servedDocuments } from '../openapi/served.ts';

const require = createRequire(import.meta.url);

const loadRenderer = async () => readFile(require.resolve(rendererModule), 'utf8');

export const serverDocs: DocsRouteOptions = {
  loadRenderer,
  missingRenderer: 'The API reference needs Redoc, a dependency of @ocs/server: run npm install.',
};

/** The reference page as one static file: works opened from disk, with no server and no network. */
export async function staticReferencePage(): Promise<string> {
  const served = servedDocuments['/openapi.json'];
  if (!served) throw new Error('the server serves no /openapi.json');
  const document: unknown = JSON.parse(await served.body());
  return referencePage('Outreach Campaign Service API reference', {
    rendererCode: await loadRenderer(),
    document,
  });
}
