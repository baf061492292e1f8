/**
 * The API reference page: the OpenAPI document rendered by Redoc's standalone bundle. Redoc
 * renders the document's OpenAPI 3.1 `webhooks` (`prospect_response`) in a section of their
 * own and, with `showExtensions`, our `x-` extensions on each operation; it loads no font,
 * script or telemetry from elsewhere, so the page works with no network (tests check it).
 *
 * The same page is served at `/docs` (script and document by URL, from the same server) and
 * built as one static file by `npm run docs` (both inlined, so it opens from disk).
 */
import { escapeHtml } from '../http/escape-html.ts';

/** Where `/docs` loads the renderer from: the server's own copy of Redoc's bundle. */
export const rendererPath = '/docs/redoc.standalone.js';

/** The extensions worth showing a reader: the scope an operation needs, sandbox-only operations. */
export const shownExtensions = ['x-required-scope', 'x-sandbox'];

/** Redoc's options (https://redocly.com/docs/redoc/config): nothing here reaches the network. */
const rendererOptions = {
  showExtensions: shownExtensions,
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  // The system's fonts: Redoc's defaults name web fonts that only a CDN stylesheet would load.
  theme: {
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
      code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
    },
  },
};

/**
 * What the page may load: only from where it came (the server, or the file itself), inline
 * code and styles (the static page, Redoc's styled-components) and blobs/data (Redoc's
 * search worker, its icons). Redoc's menu shows its maker's logo from a CDN: the browser
 * refuses it before any request (the logo then hides itself), as it would refuse any image
 * a description might link from elsewhere.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
].join('; ');

export type ReferenceSource =
  /** Served: the browser fetches the renderer and the document from these URLs. */
  | { rendererUrl: string; documentUrl: string }
  /** Static: the renderer's code and the document inlined, for a file opened from disk. */
  | { rendererCode: string; document: unknown };

export function referencePage(title: string, source: ReferenceSource): string {
  const renderer =
    'rendererUrl' in source
      ? `<script src="${escapeHtml(source.rendererUrl)}"></script>`
      : `<script>${inScript(source.rendererCode)}</script>`;
  const spec = 'documentUrl' in source ? JSON.stringify(source.documentUrl) : JSON.stringify(source.document);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="reference"></div>
${renderer}
<script>
Redoc.init(${inScript(spec)}, ${inScript(JSON.stringify(rendererOptions))}, document.getElementById('reference'));
</script>
</body>
</html>
`;
}

/**
 * Text placed inside a <script> element: `</script` would end the element early and `<!--`
 * would change how the HTML parser reads the rest, so both are escaped. In the JSON and in
 * Redoc's bundle they occur only inside strings, where `<\/` and `<\!` mean the same.
 */
function inScript(code: string): string {
  return code.replaceAll(/<\/(script)/gi, '<\\/$1').replaceAll('<!--', '<\\!--');
}
