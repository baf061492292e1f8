/**
 * Who may use the standalone mock's control routes (`/__ocs-mock/...`: reset, data, scenarios):
 * test suites on this machine, never a web page. Two ways a page could reach them:
 * - from its own origin, with a "simple" cross-origin POST that CORS sends and only hides the
 *   answer of: refused when the request carries an Origin other than the mock's own;
 * - through DNS rebinding: a page on `evil.example` whose name then resolves to 127.0.0.1 sends
 *   same-origin requests with `Host: evil.example`, so Origin and Host agree. Refused by the
 *   Host itself: a control request must name the mock by an IP address or `localhost`, which
 *   no rebinding can produce.
 */
import { isIP } from 'node:net';

/** Why the request may not use the control routes, or null when it may. */
export function controlRefusal(request: Request): string | null {
  const url = new URL(request.url);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname !== 'localhost' && isIP(hostname) === 0) {
    return `Control routes answer requests to an IP address or localhost, not to ${url.host}.`;
  }
  const from = request.headers.get('Origin');
  if (from !== null && from !== url.origin) {
    return `Control routes are not for pages: refused a request from ${from}.`;
  }
  return null;
}

/** Is this a request for a control route (by its path; a query string never makes it one)? */
export function isControlRequest(request: Request, controlPath: string): boolean {
  return new URL(request.url).pathname.startsWith(controlPath);
}
