/**
 * `GET /docs`: the API reference page, and the renderer's script it loads. Outside `/v1`: no
 * API key, no rate-limit budget, no CORS. The reference server routes it in its application
 * (`AppOptions.docs`, so it is logged); the standalone mock puts `withDocs` in front of its
 * own, so that every other request (other paths, other methods) goes on unchanged and
 * unknown paths still answer the API's 404 error body.
 *
 * Web-standard: the listener passes how to read the renderer (`@ocs/server`'s own copy of
 * Redoc, or the one installed beside `@ocs/mock`). Without one, `/docs` answers a 404 page
 * that says what to install.
 */
import { escapeHtml } from '../http/escape-html.ts';
import { referencePage, rendererPath } from './reference-page.ts';

/** The renderer's standalone bundle, as the module resolver names it. */
export const rendererModule = 'redoc/bundles/redoc.standalone.js';

export interface DocsRouteOptions {
  /** Reads Redoc's standalone bundle; undefined when it is not installed. */
  loadRenderer: () => Promise<string | undefined>;
  /** What to tell a reader when the renderer is missing (what to install). */
  missingRenderer: string;
  /** The page's title. */
  title?: string;
}

type Fetch = (request: Request) => Promise<Response>;

/** The paths `/docs` answers: the page and the renderer's script. */
export const docsPaths = ['/docs', '/docs/', rendererPath] as const;

/** Wraps a fetch handler so that `GET /docs` (and its script) is answered before it. */
export function withDocs(options: DocsRouteOptions): (next: Fetch) => Fetch {
  const answer = docsResponder(options);
  return (next) => async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next(request);
    const { pathname } = new URL(request.url);
    return (docsPaths as readonly string[]).includes(pathname) ? answer(pathname) : next(request);
  };
}

/**
 * The answer to a GET of one of `docsPaths`: the page, the renderer's script, or (Redoc not
 * installed) a 404 page saying what to install. The reference server routes these paths to
 * it inside the application (`AppOptions.docs`), so that they are logged like every request.
 */
export function docsResponder(options: DocsRouteOptions): (pathname: string) => Promise<Response> {
  let renderer: Promise<string | undefined> | undefined;
  // Read once, on the first visit: a server that nobody reads the docs of never loads 1 MB.
  const loadRenderer = () => (renderer ??= options.loadRenderer().catch(() => undefined));
  const page = referencePage(options.title ?? 'Outreach Campaign Service API reference', {
    rendererUrl: rendererPath,
    documentUrl: '/openapi.json',
  });

  return async (pathname) => {
    const code = await loadRenderer();
    if (code === undefined) return missing(options.missingRenderer);
    if (pathname === rendererPath) {
      return new Response(code, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
      });
    }
    return new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  };
}

function missing(message: string): Response {
  const text = escapeHtml(message);
  return new Response(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>API reference not installed</title></head>\n<body><h1>API reference not installed</h1><p>${text}</p><p>The document itself is at <a href="/openapi.json">/openapi.json</a> and <a href="/openapi.yaml">/openapi.yaml</a>.</p></body></html>\n`,
    { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } },
  );
}
