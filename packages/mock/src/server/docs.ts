/**
 * `/docs` on the standalone mock: the API reference page, rendered by Redoc when it is
 * installed beside @ocs/mock (an optional peer dependency, so `npm install @ocs/mock` never
 * brings it); otherwise `/docs` answers a 404 page naming what to install.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type DocsRouteOptions, rendererModule } from '@ocs/server';

const require = createRequire(import.meta.url);

/** What `/docs` says when Redoc is not installed: the optional peer, in the range @ocs/mock declares. */
export const redocMissing =
  'ocs-mock renders the API reference with Redoc, an optional peer dependency that is not installed: npm install --save-dev redoc@^2.5.4';

/** `resolve` finds the renderer's file (the module resolver from here; tests pass another). */
export function mockDocs(resolve: (id: string) => string = require.resolve): DocsRouteOptions {
  return {
    title: 'Outreach Campaign Service API reference (ocs-mock)',
    loadRenderer: async () => {
      let file: string;
      try {
        file = resolve(rendererModule);
      } catch {
        return undefined;
      }
      return readFile(file, 'utf8');
    },
    missingRenderer: redocMissing,
  };
}
