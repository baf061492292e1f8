/**
 * The origin of a server listening on `host` (`http://127.0.0.1`, `http://[::1]`), or null
 * when `host` is not an address or name alone: a URL could not hold it (`bad host`,
 * `999.1.1.1`), or it holds more than a host (`localhost:80`, `a?b`, `[::1]` already
 * bracketed). The CLIs refuse such a `--host` before they listen, and the mock's base URL is
 * built from it.
 */
export function listenOrigin(host: string): string | null {
  if (host === '' || host.includes('[')) return null;
  // An IPv6 address is bracketed in a URL.
  const origin = `http://${host.includes(':') ? `[${host}]` : host}`;
  if (!URL.canParse(origin)) return null;
  const url = new URL(origin);
  // Nothing but the host: `a?b` parses, as host `a`.
  if (url.pathname !== '/' || url.search || url.hash || url.port || url.username) return null;
  return origin;
}
